//! Strength in the line (docs/RULES.md §4, "Strength in the line"): the fighting strength a
//! unit's place holds each turn — Rank & File its stands, the effectiveness rules its quarters
//! (100/75/50/25%), Linear Warfare its pips — and nothing while the place stands empty.
//!
//! [`Measured`] adds two per-turn series to a chain whose states say what they hold
//! ([`Holds`]): the strength held, and whether the place held less than a stated share of its
//! full strength (a weakly held turn). Summed over the turns ([`super::MetricDef::SeriesTotal`])
//! they are the strength-turns held and the weakly held turns, exact and by Monte Carlo.

use crate::chain::{Chain, ClassInfo, ValueInfo, check};
use crate::dice::Roll;
use crate::frac::Frac;

/// The series' names: strength held, and 1 on a weakly held turn.
pub const STRENGTH: &str = "strength";
/// See [`STRENGTH`].
pub const WEAK: &str = "weak";

/// The strength-turns metric's name.
pub const STRENGTH_TURNS: &str = "strength_turns";
/// The weakly-held-turns metric's name.
pub const WEAK_TURNS: &str = "weak_turns";

/// What to add to "not an outcome or metric" when `name` is a strength metric of `under-fire`
/// that was not asked for (empty otherwise).
pub fn hint(name: &str) -> &'static str {
    match name {
        STRENGTH_TURNS | WEAK_TURNS => {
            " (strength_turns and weak_turns are measured in under-fire with measure_strength = true: --set measure_strength=true, or in an experiment's set)"
        }
        _ => "",
    }
}

/// True for a series of strength held ([`STRENGTH`], a battle's `strength_a`/`strength_b`),
/// which tables show as a share of its full strength (its largest value): the units of each
/// system (stands, quarters, pips) and lines of different widths then compare.
pub fn as_share(series: &str) -> bool {
    series == STRENGTH || series.starts_with("strength_")
}

/// A chain whose states say how much strength they hold in the line.
pub trait Holds: Chain {
    /// Full strength at the start of a fresh unit (stands, quarters, pips).
    fn full(&self) -> u32;
    /// The strength state `s` holds in its place in the line: 0 while the place stands empty.
    /// Read off the state's core alone ([`Chain::core`]).
    fn held(&self, s: Self::State) -> u32;
}

/// True when `held` of `full` is less than `share` of it (a weakly held turn).
pub fn is_weak(held: u32, full: u32, share: Frac) -> bool {
    u128::from(held) * u128::from(share.den) < u128::from(full) * u128::from(share.num)
}

/// A chain with the strength it holds as two per-turn series: [`STRENGTH`] and [`WEAK`].
#[derive(Debug, Clone)]
pub struct Measured<C> {
    /// The chain measured.
    pub chain: C,
    /// The share below which a turn is weakly held.
    pub share: Frac,
    series: [ValueInfo; 2],
}

impl<C: Holds> Measured<C> {
    /// `chain`, measured: a turn is weakly held below `share` of full strength.
    pub fn new(chain: C, share: Frac) -> Self {
        let series = [
            ValueInfo {
                name: STRENGTH,
                max: chain.full(),
            },
            ValueInfo { name: WEAK, max: 1 },
        ];
        Measured {
            chain,
            share,
            series,
        }
    }
}

/// The two metrics a measured chain reports, in a report's words.
pub fn metrics() -> [super::MetricDef; 2] {
    [
        super::MetricDef::SeriesTotal {
            name: STRENGTH_TURNS,
            series: STRENGTH,
            share: true,
            meaning: "the strength held in its place, summed over the turns: each turn adds the share of its full strength it held there, so a unit at full strength in its place every turn scores the number of turns",
        },
        super::MetricDef::SeriesTotal {
            name: WEAK_TURNS,
            series: WEAK,
            share: false,
            meaning: "turns the place held less than half its full strength, an empty place included (the share counted as weak, a half unless a run sets another)",
        },
    ]
}

impl<C: Holds> Chain for Measured<C> {
    type State = C::State;
    fn start(&self) -> Self::State {
        self.chain.start()
    }
    fn turns(&self) -> u32 {
        self.chain.turns()
    }
    #[inline(always)]
    fn step<R: Roll>(&self, s: Self::State, r: &mut R) -> Self::State {
        self.chain.step(s, r)
    }
    #[inline(always)]
    fn step_in_place<R: Roll>(&self, s: &mut Self::State, r: &mut R) {
        self.chain.step_in_place(s, r);
    }
    fn core(&self, s: Self::State) -> Self::State {
        self.chain.core(s)
    }
    fn accumulated(&self, s: Self::State) -> u64 {
        self.chain.accumulated(s)
    }
    fn carry(&self, s: Self::State, to: Self::State) -> Self::State {
        self.chain.carry(s, to)
    }
    fn state_of_parts(&self, core: Self::State, accumulated: u64) -> Self::State {
        self.chain.state_of_parts(core, accumulated)
    }
    fn carried(&self, accumulated: u64, to: u64) -> u64 {
        self.chain.carried(accumulated, to)
    }
    fn classes(&self) -> &[ClassInfo] {
        self.chain.classes()
    }
    fn class_of(&self, s: Self::State) -> usize {
        self.chain.class_of(s)
    }
    fn values(&self) -> &[ValueInfo] {
        self.chain.values()
    }
    fn value_of(&self, s: Self::State, i: usize) -> u32 {
        self.chain.value_of(s, i)
    }
    fn values_all(&self, s: &Self::State, out: &mut [u32]) {
        self.chain.values_all(s, out);
    }
    fn values_of_parts(&self, core: &Self::State, accumulated: u64, out: &mut [u32]) {
        self.chain.values_of_parts(core, accumulated, out);
    }
    fn value_of_accumulated(&self, i: usize, accumulated: u64) -> Option<u32> {
        self.chain.value_of_accumulated(i, accumulated)
    }
    fn values_of_core(&self) -> bool {
        self.chain.values_of_core()
    }
    fn must_finish(&self) -> bool {
        self.chain.must_finish()
    }
    fn exact(&self) -> bool {
        self.chain.exact()
    }
    fn check_step(&self, from: Self::State, to: Self::State) -> check::Check {
        self.chain.check_step(from, to)
    }
    fn halted(&self) -> bool {
        self.chain.halted()
    }
    fn series(&self) -> &[ValueInfo] {
        &self.series
    }
    fn series_of_core(&self) -> bool {
        true
    }
    fn solve_in_state_order(&self) -> bool {
        self.chain.solve_in_state_order()
    }
    fn series_of(&self, s: Self::State, i: usize) -> u32 {
        let held = self.chain.held(self.chain.core(s));
        match i {
            0 => held,
            _ => u32::from(is_weak(held, self.chain.full(), self.share)),
        }
    }
}

/// The job of `chain` with its report; with `measure` (the weak share), the chain measured for
/// strength ([`Measured`]): its two totals follow the first metric (the holes in the line), and a
/// table of the strength held after each turn follows the others.
pub fn job<C: Holds + Clone + Send + 'static>(
    chain: C,
    describe: super::Describe,
    outcomes: Vec<super::OutcomeDef>,
    mut metrics: Vec<super::MetricDef>,
    mut tables: Vec<super::TableDef>,
    measure: Option<Frac>,
) -> Box<dyn super::Job> {
    let Some(share) = measure else {
        return Box::new(super::ChainJob::new(
            chain, describe, outcomes, metrics, tables,
        ));
    };
    let at = metrics.len().min(1);
    metrics.splice(at..at, self::metrics());
    tables.push(super::TableDef::Series {
        name: "strength",
        title: "Strength held after each turn",
    });
    Box::new(super::ChainJob::new(
        Measured::new(chain, share),
        describe,
        outcomes,
        metrics,
        tables,
    ))
}
