//! `rally` (docs/RULES.md §4): a Routing or Unsteady unit takes its rally test each turn (RF-5).

use super::rules as rf;
use super::{Ctx, unit};
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::Roll;
use crate::error::Result;
use crate::scenario::MetricDef;
use crate::scenario::invariants::Check;
use crate::scenario::{ChainJob, Job, OutcomeDef, TableDef};

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

/// Why a unit may leave the table in `rally`: a single stand's last model lost to a failed
/// rally, the 50% rule (RF-3), a routed battery (RF-7).
pub const RALLY_REMOVALS: [rf::Removal; 3] = [
    rf::Removal::Destroyed,
    rf::Removal::Dispersed,
    rf::Removal::GunsAbandoned,
];

/// One 0/1 value per removal cause in `causes`: 1 when the unit ended removed for that cause.
pub fn removal_values(causes: &[rf::Removal]) -> impl Iterator<Item = ValueInfo> + '_ {
    causes.iter().map(|c| ValueInfo {
        name: c.metric(),
        max: 1,
    })
}

/// One metric per removal cause in `causes`, beside `removed` (each a share of trials).
pub fn removal_metrics(causes: &[rf::Removal]) -> impl Iterator<Item = MetricDef> + '_ {
    causes.iter().map(|c| MetricDef::Value {
        name: c.metric(),
        meaning: c.meaning(),
    })
}

/// Whether state `s` ended removed for `cause` (0 or 1).
#[inline]
pub fn removed_for(s: rf::UnitState, cause: rf::Removal) -> u32 {
    u32::from(s.removal == Some(cause))
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
    values: Vec<ValueInfo>,
}

impl RfRally {
    /// A rally trial for `unit` starting in `start`, for at most `turns` turns.
    pub fn new(unit: rf::Unit, options: rf::Options, start: rf::UnitState, turns: u32) -> Self {
        RfRally {
            values: rf_values(&unit, &start)
                .into_iter()
                .chain(removal_values(&RALLY_REMOVALS))
                .collect(),
            unit,
            options,
            start,
            turns,
        }
    }
}

impl Chain for RfRally {
    type State = rf::UnitState;
    /// RF-3 to RF-6 (see [`super::invariants::rf_unit`]), and RF-5: with no fire, a turn of
    /// rallying costs at most `rally_loss` stands (models, for a single stand).
    fn check_step(&self, from: rf::UnitState, to: rf::UnitState) -> Check {
        super::invariants::rf_unit(&self.unit, &self.options, &self.start, from, to)?;
        let (before, after) = (self.unit.stands_lost(from), self.unit.stands_lost(to));
        let most = self.unit.numbers.rally_loss;
        crate::scenario::invariants::ensure(after <= before.saturating_add(most), || {
            format!("a rally turn lost more than rally_loss = {most} stands: {from:?} → {to:?}")
        })
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
        match i {
            0 | 1 => rf_value(&self.unit, &self.start, s, i),
            _ => removed_for(s, RALLY_REMOVALS[i - 2]),
        }
    }
}

pub(super) const STANDS_LOST: MetricDef = MetricDef::Value {
    name: "stands_lost",
    meaning: "stands (models, for a single stand) lost by the end, counting those lost before",
};
pub(super) const REROLLS_USED: MetricDef = MetricDef::Value {
    name: "rerolls_used",
    meaning: "re-rolls spent in the battle: an Elite unit's allowance first, then the commander's pool (unlimited Elite re-rolls are not counted)",
};

/// The job of `rally`: the unit's rally test each turn (RF-5).
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (b, notes) = unit::single(ctx)?;
    let chain = RfRally::new(b.unit, b.options, b.start, ctx.p.turns);
    let c = chain.classes();
    let outcomes = vec![
        OutcomeDef::of(c, "recovered", &["good"]),
        OutcomeDef::of(c, "removed", &["removed"]),
        OutcomeDef::of(c, "unsteady", &["unsteady"]),
        OutcomeDef::of(c, "routing", &["routing"]),
    ];
    let turns = TableDef::absorb(
        c,
        "turns",
        "Recovered and removed, at each turn and by each turn",
        &[
            ("recovered_at", "good", false),
            ("recovered_by", "good", true),
            ("removed_at", "removed", false),
            ("removed_by", "removed", true),
        ],
    );
    let metrics = vec![
        MetricDef::absorb_turn(
            c,
            "turns_to_recover",
            "good",
            "rally phases until back in good order, among units that recovered",
        ),
        MetricDef::absorb_turn(
            c,
            "turns_to_removal",
            "removed",
            "rally phases until removed, among units removed",
        ),
        STANDS_LOST,
        REROLLS_USED,
    ]
    .into_iter()
    .chain(removal_metrics(&RALLY_REMOVALS))
    .collect();
    Ok(Box::new(ChainJob::new(
        chain,
        ctx.setup.describe(notes),
        outcomes,
        metrics,
        vec![
            turns,
            TableDef::PerTurn {
                name: "per_turn",
                title: "State after each turn",
            },
        ],
    )))
}
