//! Scenarios as small Markov chains over a unit's state, one step per game turn.
//!
//! A [`Chain`] says where a trial starts, how one turn changes the state (drawing its chance from
//! a [`Roll`]), and how states are reported: each state belongs to a [`ClassInfo`] (good,
//! routing, removed …), some classes end a trial (absorbing), some mean the unit's place in the
//! line stands empty. [`ChainSim`] runs a chain's trials for the engine and fills a tally laid
//! out by [`Layout`]; [`crate::exact::solve_chain`] fills an array of probabilities with the same
//! layout, so estimates and exact values are read by the same code.

use std::fmt::Debug;
use std::hash::Hash;

use crate::dice::{Dice, Roll};
use crate::engine::Sim;

/// How states of one class are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassInfo {
    /// The class's name in outputs (e.g. `routing`).
    pub name: &'static str,
    /// A trial that reaches this class ends there (e.g. removed, or recovered in `rally`).
    pub absorbing: bool,
    /// The unit's position in the line stands empty while it is in this class (holes metric).
    pub empty: bool,
}

/// An integer read off a trial's final state (e.g. stands lost), tallied as a histogram.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueInfo {
    /// The value's name in outputs.
    pub name: &'static str,
    /// The largest value it can take.
    pub max: u32,
}

/// A scenario as a Markov chain over a unit's state, one step per turn.
pub trait Chain: Sync {
    /// The state a trial carries from turn to turn: small and `Copy`.
    type State: Copy + Eq + Ord + Hash + Debug + Send + Sync;
    /// Where every trial starts.
    fn start(&self) -> Self::State;
    /// The number of turns a trial lasts at most.
    fn turns(&self) -> u32;
    /// One turn: the next state, drawing chance from `r`.
    fn step<R: Roll>(&self, s: Self::State, r: &mut R) -> Self::State;
    /// The reporting classes.
    fn classes(&self) -> &[ClassInfo];
    /// The class of a state (an index into [`Chain::classes`]).
    fn class_of(&self, s: Self::State) -> usize;
    /// The integer values read off the final state.
    fn values(&self) -> &[ValueInfo];
    /// Value `i` of state `s` (at most `values()[i].max`).
    fn value_of(&self, s: Self::State, i: usize) -> u32;
}

/// Where each counter of a chain's tally (or each probability of its exact solution) lives.
///
/// - `final(c)`: trials that ended in class `c`;
/// - `absorbed(c, t)`: trials absorbed into class `c` at turn `t` (0 = at the start);
/// - `live(t, c)`: trials not yet absorbed that were in class `c` after turn `t` (1-based);
/// - `empty(e)`: trials whose position stood empty after `e` of the turns;
/// - `value(i, v)`: trials whose final value `i` was `v`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Number of classes.
    pub classes: usize,
    /// Number of turns.
    pub turns: usize,
    value_offsets: Vec<usize>,
    absorbed0: usize,
    live0: usize,
    empty0: usize,
    len: usize,
}

impl Layout {
    /// The layout for `classes` classes, `turns` turns and values with the given maxima.
    pub fn new(classes: usize, turns: usize, value_max: &[u32]) -> Self {
        let absorbed0 = classes;
        let live0 = absorbed0 + classes * (turns + 1);
        let empty0 = live0 + classes * turns;
        let mut at = empty0 + turns + 1;
        let mut value_offsets = Vec::with_capacity(value_max.len() + 1);
        for &m in value_max {
            value_offsets.push(at);
            at += m as usize + 1;
        }
        value_offsets.push(at);
        Layout {
            classes,
            turns,
            value_offsets,
            absorbed0,
            live0,
            empty0,
            len: at,
        }
    }

    /// The layout of a chain.
    pub fn of<C: Chain>(chain: &C) -> Self {
        let maxes: Vec<u32> = chain.values().iter().map(|v| v.max).collect();
        Layout::new(chain.classes().len(), chain.turns() as usize, &maxes)
    }

    /// Total number of counters.
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when there are no counters (never for a real chain).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Index of `final(c)`.
    #[inline]
    pub fn final_(&self, c: usize) -> usize {
        c
    }
    /// Index of `absorbed(c, t)`, `t` in `0..=turns`.
    #[inline]
    pub fn absorbed(&self, c: usize, t: usize) -> usize {
        self.absorbed0 + c * (self.turns + 1) + t
    }
    /// Index of `live(t, c)`, `t` in `1..=turns`.
    #[inline]
    pub fn live(&self, t: usize, c: usize) -> usize {
        self.live0 + (t - 1) * self.classes + c
    }
    /// Index of `empty(e)`, `e` in `0..=turns`.
    #[inline]
    pub fn empty(&self, e: usize) -> usize {
        self.empty0 + e
    }
    /// The index range of value `i`'s histogram.
    pub fn value_range(&self, i: usize) -> std::ops::Range<usize> {
        self.value_offsets[i]..self.value_offsets[i + 1]
    }
    /// Index of `value(i, v)`.
    #[inline]
    pub fn value(&self, i: usize, v: usize) -> usize {
        self.value_offsets[i] + v
    }
    /// The index range of the empty-turns histogram.
    pub fn empty_range(&self) -> std::ops::Range<usize> {
        self.empty0..self.empty0 + self.turns + 1
    }
    /// The indices of `absorbed(c, 0..=turns)`.
    pub fn absorbed_range(&self, c: usize) -> std::ops::Range<usize> {
        self.absorbed(c, 0)..self.absorbed(c, self.turns) + 1
    }

    /// The count (or probability) of being in class `c` after turn `t` (0 = at the start),
    /// whether or not the trial was absorbed: live states plus absorptions up to `t`.
    pub fn in_class_after<T: Copy + std::iter::Sum<T>>(&self, data: &[T], c: usize, t: usize) -> T {
        let absorbed = (0..=t).map(|k| data[self.absorbed(c, k)]);
        if t == 0 {
            absorbed.sum()
        } else {
            std::iter::once(data[self.live(t, c)]).chain(absorbed).sum()
        }
    }
}

/// Runs a [`Chain`]'s trials for the engine.
#[derive(Debug, Clone)]
pub struct ChainSim<C> {
    /// The chain.
    pub chain: C,
    /// Its tally layout.
    pub layout: Layout,
    absorbing: u64,
    empty: u64,
}

impl<C: Chain> ChainSim<C> {
    /// Wrap a chain (at most 64 classes).
    pub fn new(chain: C) -> Self {
        let layout = Layout::of(&chain);
        let mut absorbing = 0u64;
        let mut empty = 0u64;
        for (i, c) in chain.classes().iter().enumerate() {
            absorbing |= u64::from(c.absorbing) << i;
            empty |= u64::from(c.empty) << i;
        }
        ChainSim {
            chain,
            layout,
            absorbing,
            empty,
        }
    }

    /// Run one trial, adding into `tally`.
    #[inline]
    pub fn trial<R: Roll>(&self, r: &mut R, tally: &mut [u64]) {
        let l = &self.layout;
        let turns = l.turns;
        let mut s = self.chain.start();
        let mut c = self.chain.class_of(s);
        let mut empty_turns = 0usize;
        if self.absorbing >> c & 1 == 1 {
            tally[l.absorbed(c, 0)] += 1;
            empty_turns = turns * (self.empty >> c & 1) as usize;
        } else {
            for t in 1..=turns {
                s = self.chain.step(s, r);
                c = self.chain.class_of(s);
                let is_empty = (self.empty >> c & 1) as usize;
                if self.absorbing >> c & 1 == 1 {
                    tally[l.absorbed(c, t)] += 1;
                    empty_turns += is_empty * (turns - t + 1);
                    break;
                }
                tally[l.live(t, c)] += 1;
                empty_turns += is_empty;
            }
        }
        tally[l.final_(c)] += 1;
        tally[l.empty(empty_turns)] += 1;
        for i in 0..self.chain.values().len() {
            tally[l.value(i, self.chain.value_of(s, i) as usize)] += 1;
        }
    }
}

impl<C: Chain> Sim for ChainSim<C> {
    fn tally_len(&self) -> usize {
        self.layout.len()
    }
    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
        for _ in 0..n {
            self.trial(dice, tally);
        }
    }
}
