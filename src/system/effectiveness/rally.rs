//! `rally` (docs/RULES.md §4): a retreating unit rolls each move to return to action (EF-5).

use super::unit::return_words;
use super::{Ctx, unit};
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::Roll;
use crate::error::Result;
use crate::scenario::invariants::{self, Check};
use crate::scenario::{ChainJob, Job, MetricDef, OutcomeDef, TableDef};

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
    pub unit: crate::system::effectiveness::rules::Unit,
    /// Its state at the start.
    pub start: crate::system::effectiveness::rules::UnitState,
    /// The turn cap.
    pub turns: u32,
}

impl Chain for EfRally {
    type State = crate::system::effectiveness::rules::UnitState;
    /// EF-5: only the status moves, from retreating back into the line; strength stays.
    fn check_step(&self, from: Self::State, to: Self::State) -> Check {
        invariants::ensure(to.quarters == from.quarters && to.hits == from.hits, || {
            format!("strength changed in a rally: {from:?} → {to:?}")
        })?;
        super::invariants::ef_unit(u8::MAX, from, to)
    }
    fn start(&self) -> Self::State {
        self.start
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    #[inline]
    fn step<R: Roll>(&self, mut s: Self::State, r: &mut R) -> Self::State {
        use crate::system::effectiveness::rules::Status;
        if s.status == Status::Retreating && self.unit.back_in_action(&mut s, r) {
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

/// The job of `rally`: a retreating unit's way back into action (EF-5).
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (rules, u, s, mut notes) = unit::single(ctx)?;
    let (p, on) = (&ctx.p, &ctx.on);
    notes.push(return_words(&rules.q, on));
    let chain = EfRally {
        unit: u,
        start: s,
        turns: p.turns,
    };
    let c = chain.classes();
    let outcomes = vec![
        OutcomeDef::of(c, "back_in_action", &["in_line"]),
        OutcomeDef::of(c, "still_retreating", &["retreating"]),
    ];
    let metrics = vec![MetricDef::absorb_turn(
        c,
        "turns_to_return",
        "in_line",
        "moves until back in normal action, among units that returned",
    )];
    let turns = TableDef::absorb(
        c,
        "turns",
        "Returned to action at each move and by each move",
        &[
            ("returned_at", "in_line", false),
            ("returned_by", "in_line", true),
        ],
    );
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
