//! `test` (docs/RULES.md §4): one opposed melee round (LW-4) or one volley (LW-2).

use super::Ctx;
use super::params::TestKind;
use super::unit::volley_dice;
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::Roll;
use crate::error::{Error, Result};
use crate::scenario::invariants::{Check, ensure};
use crate::scenario::{ChainJob, Job, MetricDef, OutcomeDef};

/// Classes of an opposed melee round (LW-4).
pub const ROUND_CLASSES: [ClassInfo; 4] = [
    ClassInfo {
        name: "win",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "draw",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "lose",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "untested",
        absorbing: false,
        empty: false,
    },
];

const fn hits_class(name: &'static str) -> ClassInfo {
    ClassInfo {
        name,
        absorbing: true,
        empty: false,
    }
}

/// Classes of a volley: its number of hits (up to 24 dice), then "untested".
pub const VOLLEY_CLASSES: [ClassInfo; 26] = [
    hits_class("hits_0"),
    hits_class("hits_1"),
    hits_class("hits_2"),
    hits_class("hits_3"),
    hits_class("hits_4"),
    hits_class("hits_5"),
    hits_class("hits_6"),
    hits_class("hits_7"),
    hits_class("hits_8"),
    hits_class("hits_9"),
    hits_class("hits_10"),
    hits_class("hits_11"),
    hits_class("hits_12"),
    hits_class("hits_13"),
    hits_class("hits_14"),
    hits_class("hits_15"),
    hits_class("hits_16"),
    hits_class("hits_17"),
    hits_class("hits_18"),
    hits_class("hits_19"),
    hits_class("hits_20"),
    hits_class("hits_21"),
    hits_class("hits_22"),
    hits_class("hits_23"),
    hits_class("hits_24"),
    ClassInfo {
        name: "untested",
        absorbing: false,
        empty: false,
    },
];

/// The most dice a volley test takes.
pub const MAX_VOLLEY_DICE: u32 = 24;

/// What an Age of Linear Warfare `test` is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LwTest {
    /// LW-4: one opposed melee round; the difference is the first side's modifiers minus the
    /// second's.
    Round {
        /// Modifier difference.
        difference: i32,
    },
    /// LW-2: one volley of `dice` dice hitting on `to_hit`+.
    Volley {
        /// Dice rolled (at most [`MAX_VOLLEY_DICE`]).
        dice: u32,
        /// The roll each die needs.
        to_hit: u8,
        /// Its hit table.
        table: crate::dice::Weights,
    },
}

/// The state of an LW test: before, or the result's class index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LwTestState(pub Option<u8>);

const VOLLEY_VALUES: [ValueInfo; 1] = [ValueInfo {
    name: "hits",
    max: MAX_VOLLEY_DICE,
}];

impl Chain for LwTest {
    type State = LwTestState;
    /// LW-2 / LW-4: one roll, taken once.
    fn check_step(&self, from: LwTestState, to: LwTestState) -> Check {
        ensure(from.0.is_none() && to.0.is_some(), || {
            format!("a roll is made once: {from:?} → {to:?}")
        })
    }
    fn start(&self) -> LwTestState {
        LwTestState(None)
    }
    fn turns(&self) -> u32 {
        1
    }
    fn step<R: Roll>(&self, _s: LwTestState, r: &mut R) -> LwTestState {
        LwTestState(Some(match self {
            LwTest::Round { difference } => {
                match crate::system::linear_warfare::rules::opposed(*difference, r) {
                    std::cmp::Ordering::Greater => 0,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 2,
                }
            }
            LwTest::Volley { table, .. } => r.pick(table) as u8,
        }))
    }
    fn classes(&self) -> &[ClassInfo] {
        match self {
            LwTest::Round { .. } => &ROUND_CLASSES,
            LwTest::Volley { .. } => &VOLLEY_CLASSES,
        }
    }
    fn class_of(&self, s: LwTestState) -> usize {
        match s.0 {
            Some(c) => usize::from(c),
            None => self.classes().len() - 1,
        }
    }
    fn values(&self) -> &[ValueInfo] {
        match self {
            LwTest::Round { .. } => &[],
            LwTest::Volley { .. } => &VOLLEY_VALUES,
        }
    }
    fn value_of(&self, s: LwTestState, _i: usize) -> u32 {
        u32::from(s.0.unwrap_or(0))
    }
}

/// The job of `test`: one opposed round (LW-4) or one volley (LW-2).
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (p, n) = (&ctx.p, &ctx.n);
    let dice_follow_pips = ctx.on.dice_follow_pips;
    let mut notes = Vec::new();
    let chain = if p.test == TestKind::Round {
        notes.push(format!(
            "one opposed roll: each side a D6 plus its modifiers; the first side's total is {:+} against the second's (LW-4)",
            p.difference
        ));
        LwTest::Round {
            difference: p.difference,
        }
    } else {
        let (dice, to_hit) = volley_dice((p, n), true, dice_follow_pips)?;
        if dice > MAX_VOLLEY_DICE {
            return Err(Error::Invalid {
                what: p.how.stands.what.clone(),
                value: dice.to_string(),
                allowed: format!("a volley test takes at most {MAX_VOLLEY_DICE} dice"),
            });
        }
        notes.push(format!("{dice} dice hitting on {to_hit}+ (LW-2)"));
        LwTest::Volley {
            dice,
            to_hit,
            table: crate::dice::Weights::hits(dice, to_hit),
        }
    };
    let (outcomes, metrics) = match &chain {
        LwTest::Round { .. } => (
            OutcomeDef::each(chain.classes(), &["win", "draw", "lose"]),
            vec![],
        ),
        LwTest::Volley { dice, .. } => (
            // One outcome for each number of hits the volley can score.
            OutcomeDef::each(
                chain.classes(),
                &VOLLEY_CLASSES[..=*dice as usize]
                    .iter()
                    .map(|c| c.name)
                    .collect::<Vec<_>>(),
            ),
            vec![MetricDef::Value {
                name: "hits",
                meaning: "hits (pips removed) by the volley",
            }],
        ),
    };
    Ok(Box::new(ChainJob::new(
        chain,
        ctx.setup.describe(notes),
        outcomes,
        metrics,
        vec![],
    )))
}
