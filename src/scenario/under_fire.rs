//! `under-fire`: a unit holds its place in the line under enemy fire for T turns, with every
//! test its rules call for (RULES.md §4).

use crate::dice::{Roll, Weights};
use crate::rules::effectiveness as ef;
use crate::rules::linear_warfare as lw;
use crate::rules::rank_and_file as rf;
use crate::scenario::chain::{Chain, ClassInfo, ValueInfo};
use crate::scenario::fire::Fire;
use crate::scenario::invariants::{self, Check};
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
/// hit), its morale test (RF-5, RF-7) and the 50% rule (RF-3). Under `elephant-stampede` an
/// elephant that fails a morale test stampedes on 1–2 (RF-8); the state records whether it ever
/// did.
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
    /// RF-8: an elephant that fails a morale test may stampede.
    pub stampede: bool,
    values: [ValueInfo; 3],
}

impl RfUnderFire {
    /// A unit under `fire` for `turns` turns.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        unit: rf::Unit,
        options: rf::Options,
        start: rf::UnitState,
        turns: u32,
        fire: Fire,
        fire_on_unsteady: bool,
        fire_on_routing: bool,
        stampede: bool,
    ) -> Self {
        let [lost, rerolls] = rf_values(&unit, &start);
        RfUnderFire {
            values: [
                lost,
                rerolls,
                ValueInfo {
                    name: "stampeded",
                    max: 1,
                },
            ],
            unit,
            options,
            start,
            turns,
            fire,
            fire_on_unsteady,
            fire_on_routing,
            stampede: stampede && unit.kind == rf::Kind::Elephant,
        }
    }
}

impl Chain for RfUnderFire {
    type State = (rf::UnitState, bool);
    /// RF-3 to RF-8 (see [`invariants::rf_unit`]); a stampede, once it happened, stays
    /// counted.
    fn check_step(&self, from: Self::State, to: Self::State) -> Check {
        invariants::rf_unit(&self.unit, &self.options, &self.start, from.0, to.0)?;
        invariants::ensure(!from.1 || to.1, || "a stampede was undone".into())
    }
    fn start(&self) -> Self::State {
        (self.start, false)
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    #[inline]
    fn step<R: Roll>(&self, (s, stampeded): Self::State, r: &mut R) -> Self::State {
        let s = self.unit.rally(&self.options, s, r);
        let targeted = match s.status {
            rf::Status::Good => true,
            rf::Status::Unsteady => self.fire_on_unsteady,
            rf::Status::Routing => self.fire_on_routing,
            rf::Status::Removed => false,
        };
        if !targeted {
            return (s, stampeded);
        }
        let hits = self.fire.sample(r).min(u32::from(u8::MAX)) as u8;
        if hits == 0 {
            return (s, stampeded);
        }
        let hit = self.unit.take_hits(s, hits);
        let after = self.unit.morale(&self.options, hit, r);
        // A failed morale test always drops the unit a level.
        let failed = hit.status != rf::Status::Removed && after.status != hit.status;
        let stamped = self.stampede && failed && !stampeded && rf::stampedes(r);
        (after, stampeded || stamped)
    }
    fn classes(&self) -> &[ClassInfo] {
        &RF_UNDER_FIRE_CLASSES
    }
    #[inline]
    fn class_of(&self, s: Self::State) -> usize {
        rf_class(s.0)
    }
    fn values(&self) -> &[ValueInfo] {
        &self.values
    }
    fn value_of(&self, s: Self::State, i: usize) -> u32 {
        match i {
            2 => u32::from(s.1),
            _ => rf_value(&self.unit, &self.start, s.0, i),
        }
    }
}

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

/// An effectiveness-rules unit under fire. Each turn: a retreating unit rolls to return to
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
    values: [ValueInfo; 1],
}

impl EfUnderFire {
    /// A unit under `fire` for `turns` turns.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        unit: ef::Unit,
        start: ef::UnitState,
        turns: u32,
        fire: Fire,
        hits_per_quarter: u8,
        retreat_on_fire: bool,
        enemy: Enemy,
        blocked: Option<Weights>,
        retreat_out_of_range: bool,
    ) -> Self {
        EfUnderFire {
            values: [ValueInfo {
                name: "quarters_lost",
                max: 4,
            }],
            unit,
            start,
            turns,
            fire,
            hits_per_quarter,
            retreat_on_fire,
            enemy,
            blocked,
            retreat_out_of_range,
        }
    }

    /// Whether the enemy lost a quarter to our volley this turn and failed its test.
    #[inline(always)]
    fn enemy_failed<R: Roll>(&self, r: &mut R) -> bool {
        self.enemy.fire.sample(r) >= u32::from(self.hits_per_quarter) && !self.enemy.unit.test(r)
    }
}

impl Chain for EfUnderFire {
    type State = ef::UnitState;
    /// EF-1 / EF-4 (see [`invariants::ef_unit`]).
    fn check_step(&self, from: ef::UnitState, to: ef::UnitState) -> Check {
        invariants::ef_unit(self.hits_per_quarter, from, to)
    }
    fn start(&self) -> ef::UnitState {
        self.start
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    #[inline]
    fn step<R: Roll>(&self, mut s: ef::UnitState, r: &mut R) -> ef::UnitState {
        if s.status == ef::Status::Retreating && self.unit.roll_to_return(r) {
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
        ef::retreat(s, self.blocked.as_ref(), r)
    }
    fn classes(&self) -> &[ClassInfo] {
        &EF_UNDER_FIRE_CLASSES
    }
    #[inline]
    fn class_of(&self, s: ef::UnitState) -> usize {
        s.status as usize
    }
    fn values(&self) -> &[ValueInfo] {
        &self.values
    }
    fn value_of(&self, s: ef::UnitState, _i: usize) -> u32 {
        u32::from(self.start.quarters - s.quarters)
    }
}

/// Classes of an Age of Linear Warfare unit under fire: falling back in good order leaves its
/// place empty, as does removal (which ends the trial).
pub const LW_UNDER_FIRE_CLASSES: [ClassInfo; 3] = [
    ClassInfo {
        name: "in_line",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "falling_back",
        absorbing: false,
        empty: true,
    },
    ClassInfo {
        name: "removed",
        absorbing: true,
        empty: true,
    },
];

/// Where an Age of Linear Warfare unit under fire stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LwStatus {
    /// In the line.
    InLine,
    /// LW-5: falling back; this turn it retires a full move.
    Retiring,
    /// LW-5: fallen back, recovering a pip a turn.
    Recovering,
    /// LW-1: out of pips.
    Removed,
}

/// An Age of Linear Warfare unit's state under fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LwState {
    /// Where it stands.
    pub status: LwStatus,
    /// Its pips and its general's.
    pub pips: lw::Pips,
}

/// An Age of Linear Warfare unit under fire. Each turn: a unit falling back retires (the turn
/// it decided) or recovers a pip (LW-5), rejoining the line at `return_at` pips; the enemy fires
/// at it (not while it falls back out of range), each hit a pip (LW-2; a general bears half, by
/// coin, LW-6); a unit in the line at or below `fall_back_at` pips falls back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LwUnderFire {
    /// Pips the unit starts with (and recovers up to).
    pub pips: u8,
    /// Its state at the start.
    pub start: LwState,
    /// Turns of fire.
    pub turns: u32,
    /// The enemy's fire each turn, in hits (= pips).
    pub fire: Fire,
    /// Fall back at or below this many pips (0: never).
    pub fall_back_at: u8,
    /// Rejoin the line on recovering to this many pips.
    pub return_at: u8,
    /// A unit falling back is out of the enemy's range.
    pub fall_back_out_of_range: bool,
    coin: Weights,
    values: [ValueInfo; 1],
}

impl LwUnderFire {
    /// A unit of `pips` pips under `fire`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        pips: u8,
        start: LwState,
        turns: u32,
        fire: Fire,
        fall_back_at: u8,
        return_at: u8,
        fall_back_out_of_range: bool,
    ) -> Self {
        LwUnderFire {
            pips,
            start,
            turns,
            fire,
            fall_back_at,
            return_at,
            fall_back_out_of_range,
            coin: lw::coin(),
            values: [ValueInfo {
                name: "pips_lost",
                max: u32::from(pips),
            }],
        }
    }
}

impl Chain for LwUnderFire {
    type State = LwState;
    /// LW-1 / LW-5 / LW-6 (see [`invariants::lw_pips`]): a unit gains a pip only in a turn
    /// it spends recovering.
    fn check_step(&self, from: LwState, to: LwState) -> Check {
        invariants::lw_unit(self.pips, from, to)
    }
    fn start(&self) -> LwState {
        self.start
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    #[inline]
    fn step<R: Roll>(&self, mut s: LwState, r: &mut R) -> LwState {
        match s.status {
            LwStatus::Removed => return s,
            LwStatus::Retiring => s.status = LwStatus::Recovering,
            LwStatus::Recovering => {
                s.pips.unit = (s.pips.unit + 1).min(self.pips);
                if s.pips.unit >= self.return_at {
                    s.status = LwStatus::InLine;
                }
            }
            LwStatus::InLine => {}
        }
        let fired_at = s.status == LwStatus::InLine || !self.fall_back_out_of_range;
        if fired_at {
            let hits = self.fire.sample(r);
            s.pips = s.pips.lose(hits, &self.coin, r);
            if s.pips.unit == 0 {
                s.status = LwStatus::Removed;
                return s;
            }
        }
        if s.status == LwStatus::InLine && s.pips.unit <= self.fall_back_at {
            s.status = LwStatus::Retiring;
        }
        s
    }
    fn classes(&self) -> &[ClassInfo] {
        &LW_UNDER_FIRE_CLASSES
    }
    #[inline]
    fn class_of(&self, s: LwState) -> usize {
        match s.status {
            LwStatus::InLine => 0,
            LwStatus::Retiring | LwStatus::Recovering => 1,
            LwStatus::Removed => 2,
        }
    }
    fn values(&self) -> &[ValueInfo] {
        &self.values
    }
    fn value_of(&self, s: LwState, _i: usize) -> u32 {
        u32::from(self.pips.saturating_sub(s.pips.unit))
    }
}
