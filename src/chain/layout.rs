//! Where each counter of a chain's tally lives.

use super::*;

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
    series0: usize,
    series: usize,
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
            series0: at,
            series: 0,
            len: at,
        }
    }

    /// The same layout with `n` per-turn series after it.
    pub fn with_series(mut self, n: usize) -> Self {
        self.series = n;
        self.len = self.series0 + 2 * n * self.turns;
        self
    }

    /// The layout of a chain.
    pub fn of<C: Chain>(chain: &C) -> Self {
        let maxes: Vec<u32> = chain.values().iter().map(|v| v.max).collect();
        Layout::new(chain.classes().len(), chain.turns() as usize, &maxes)
            .with_series(chain.series().len())
    }

    /// Number of per-turn series.
    pub fn series(&self) -> usize {
        self.series
    }
    /// Index of the sum of series `i` after turn `t` (1-based); the sum of squares follows it.
    #[inline]
    pub fn series_sum(&self, i: usize, t: usize) -> usize {
        self.series0 + 2 * (i * self.turns + t - 1)
    }

    /// Total number of counters.
    pub fn len(&self) -> usize {
        self.len
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
