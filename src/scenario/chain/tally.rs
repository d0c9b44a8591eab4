//! The table sampler's raw tally: where its counters sit, folding it into the layout, and
//! checking the compiled tables against the exact solution.

use super::*;

impl<C: Chain> ChainSim<C> {
    /// Index of "moved from class `from` to class `to` on turn `t`" in the table sampler's raw
    /// tally (`t` in 1..=turns).
    #[inline(always)]
    pub(super) fn trans(&self, t: usize, from: usize, to: usize) -> usize {
        let c = self.layout.classes;
        self.layout.len() + ((t - 1) * c + from) * c + to
    }

    /// Index of "series `i` read `v` at the end of a trial that ended before turn `t`" (its
    /// sum, then its square) in the rules code's raw tally (`t` in 1..=turns), after the
    /// layout: [`ChainSim::finish`] adds it into every turn from `t` on.
    #[inline(always)]
    pub(super) fn tail(&self, i: usize, t: usize) -> usize {
        self.layout.len() + 2 * (i * self.layout.turns + t - 1)
    }

    /// Index of "ended in compiled state `k`" in the table sampler's raw tally.
    #[inline(always)]
    pub(super) fn ended(&self, k: usize) -> usize {
        let c = self.layout.classes;
        self.layout.len() + self.layout.turns * c * c + k
    }

    /// Index of "took opening path `p`" in the table sampler's raw tally.
    #[inline(always)]
    pub(super) fn opening_count(&self, table: &Table<C::State>, p: usize) -> usize {
        self.ended(table.states.len()) + p
    }

    /// Index of "drew block record `r`" in the table sampler's raw tally (after the opening's).
    #[inline(always)]
    pub(super) fn block_count(&self, table: &Table<C::State>, op: &Opening, r: usize) -> usize {
        self.opening_count(table, op.paths.len()) + r
    }

    /// Turn a raw engine tally into the chain's [`Layout`].
    ///
    /// With the table sampler, a trial records only its class changes (`trans`) and its final
    /// state: trials in class `c` after turn `t` are those that started there, plus those that
    /// moved into it, less those that moved out, by turn `t`; absorptions are moves into an
    /// absorbing class.
    pub fn finish(&self, raw: &[u64]) -> Vec<u64> {
        self.fold(raw)
    }

    /// [`ChainSim::finish`] for counts of any kind: trials (`u64`), or probabilities (`f64`)
    /// for [`ChainSim::check_tables`].
    pub(super) fn fold<T: Count>(&self, raw: &[T]) -> Vec<T> {
        let l = &self.layout;
        let Some(table) = &self.table else {
            // The rules code's tally: each series' value in a trial's turns after it ended was
            // recorded once, at the first of them; add it to every turn from there.
            let mut out = raw[..l.len()].to_vec();
            for i in 0..l.series() {
                let (mut sum, mut squares) = (T::default(), T::default());
                for t in 1..=l.turns {
                    sum += raw[self.tail(i, t)];
                    squares += raw[self.tail(i, t) + 1];
                    out[l.series_sum(i, t)] += sum;
                    out[l.series_sum(i, t) + 1] += squares;
                }
            }
            return out;
        };
        // Each opening path's and block record's count stands for its increments.
        let mut raw = raw.to_vec();
        if let (Some(op), Some(b)) = (&self.opening, &self.blocks) {
            for (r, rec) in b.records.iter().enumerate() {
                let n = raw[self.block_count(table, op, r)];
                for &i in &b.incs[rec.from as usize..rec.to as usize] {
                    raw[i as usize] += n;
                }
            }
        }
        if let Some(op) = &self.opening {
            for (p, path) in op.paths.iter().enumerate() {
                let n = raw[self.opening_count(table, p)];
                for &i in &op.incs[path.from as usize..path.to as usize] {
                    raw[i as usize] += n;
                }
            }
            raw.truncate(self.opening_count(table, 0));
        }
        let raw = &raw[..];
        let mut out = raw[..l.len()].to_vec();
        let classes = self.chain.classes();
        let start_class = table.rows[0].class as usize;
        let trials: T = raw[self.ended(0)..].iter().copied().sum();
        let started_live = trials - out[l.absorbed(start_class, 0)];
        for (c, info) in classes.iter().enumerate() {
            let mut inside = if c == start_class {
                started_live
            } else {
                T::default()
            };
            for t in 1..=l.turns {
                for other in 0..l.classes {
                    if info.absorbing {
                        out[l.absorbed(c, t)] += raw[self.trans(t, other, c)];
                    } else {
                        inside += raw[self.trans(t, other, c)];
                        inside -= raw[self.trans(t, c, other)];
                    }
                }
                if !info.absorbing {
                    out[l.live(t, c)] = inside;
                }
            }
        }
        if let Some(all) = self.empty_by_moves() {
            // The dice sampler's walk left the empty turns to be read off the absorptions: a
            // trial absorbed at turn t stood empty its t - 1 live turns when every live class
            // stands empty (none when none does), and the turns from t on when its end does;
            // one that lived to the cap, all its turns or none.
            let live = |t: usize| if all { t } else { 0 };
            let mut absorbed = T::default();
            for (c, info) in classes.iter().enumerate().filter(|(_, i)| i.absorbing) {
                for t in 1..=l.turns {
                    let n = out[l.absorbed(c, t)];
                    let e = live(t - 1) + usize::from(info.empty) * (l.turns + 1 - t);
                    out[l.empty(e)] += n;
                    absorbed += n;
                }
            }
            out[l.empty(live(l.turns))] += trials - absorbed;
        }
        for (k, &n) in raw[self.ended(0)..].iter().enumerate() {
            if n == T::default() {
                continue;
            }
            let s = table.states[k];
            out[l.final_(self.chain.class_of(s))] += n;
            for i in 0..self.chain.values().len() {
                out[l.value(i, self.chain.value_of(s, i) as usize)] += n;
            }
        }
        out
    }

    /// Check the compiled tables against the exact solution: the chance of every counter of
    /// the table sampler's raw tally (opening paths, block records, turn-by-turn moves) is
    /// worked out from the tables' own integer weights, folded by [`ChainSim::finish`]'s code,
    /// and must equal [`crate::exact::solve_chain`]'s value of every cell of the layout (within
    /// 1e-9). `Ok` when the chain has no tables (the dice sampler runs the rules code itself).
    ///
    /// # Errors
    /// The first cell that differs, in words.
    /// A fight's table ([`Fight`]) is solved exactly as a chain of its own ([`FightChain`]) and
    /// must give the same cells within 1e-9.
    pub fn check_tables(&self) -> Result<(), String> {
        if let Some(fight) = &self.fight {
            let want =
                crate::exact::solve_chain(&self.chain, "check").map_err(|e| e.to_string())?;
            let tabled = FightChain {
                chain: &self.chain,
                fight,
            };
            let got = crate::exact::solve_chain(&tabled, "check").map_err(|e| e.to_string())?;
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                if (g - w).abs() > 1e-9 {
                    return Err(format!(
                        "the fight table's chance of cell {i} of the layout is {g}, the exact solution's {w}"
                    ));
                }
            }
            return Ok(());
        }
        let Some(table) = &self.table else {
            return Ok(());
        };
        let want = crate::exact::solve_chain(&self.chain, "check").map_err(|e| e.to_string())?;
        let got = self.fold(&self.table_chances(table));
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            if (g - w).abs() > 1e-9 {
                return Err(format!(
                    "the table sampler's chance of cell {i} of the layout is {g}, the exact solution's {w}"
                ));
            }
        }
        Ok(())
    }

    /// The chance of each counter of the table sampler's raw tally in one trial, from the
    /// compiled weights alone (no dice): the expected raw tally of one trial.
    pub(super) fn table_chances(&self, table: &Table<C::State>) -> Vec<f64> {
        use std::collections::BTreeMap;
        let l = &self.layout;
        let turns = l.turns;
        let mut raw = vec![0.0; self.tally_len()];
        let row0 = &table.rows[0];
        if row0.absorbing {
            raw[l.absorbed(row0.class as usize, 0)] += 1.0;
            raw[l.empty(turns * row0.empty as usize)] += 1.0;
            raw[self.ended(0)] += 1.0;
            return raw;
        }
        // Trials still going: (turn, state, empty turns so far) with their chance.
        let mut going: BTreeMap<(usize, usize, usize), f64> = BTreeMap::new();
        match &self.opening {
            None => {
                going.insert((0, 0, 0), 1.0);
            }
            Some(op) => {
                for (p, path) in op.paths.iter().enumerate() {
                    let q = op.table.p(p);
                    raw[self.opening_count(table, p)] += q;
                    if let Some(c) = path.cont {
                        *going
                            .entry((op.turns, c.state as usize, c.empty as usize))
                            .or_insert(0.0) += q;
                    }
                }
            }
        }
        // In turn order, so every way into a (turn, state, empty) is added before it moves on.
        while let Some(((t, s, empty), q)) = going.pop_first() {
            if let (Some(op), Some(b)) = (&self.opening, &self.blocks) {
                // Trials stand only at block starts: turn op.turns + j·k is block j.
                let j = (t - op.turns) / b.k;
                let bt = &b.tables[b.at[j * b.states + s] as usize];
                for i in 0..bt.weights.len() {
                    let r = bt.first as usize + i;
                    let q2 = q * bt.weights.p(i);
                    raw[self.block_count(table, op, r)] += q2;
                    let rec = &b.records[r];
                    let e2 = empty + rec.empty as usize;
                    if rec.cont == ENDED {
                        raw[l.empty(e2)] += q2;
                    } else {
                        let t2 = (t + b.k).min(turns);
                        *going.entry((t2, rec.cont as usize, e2)).or_insert(0.0) += q2;
                    }
                }
                continue;
            }
            // Turn by turn, as `run_from` records it (its dwell tables draw the same stays).
            let row = &table.rows[s];
            let c = row.class as usize;
            let d = (row.total + row.stay) as f64;
            let stay = (row.stay > 0).then_some((s, row.stay));
            let exits = (0..row.len as usize).map(|i| {
                (
                    table.next[row.first as usize + i] as usize,
                    table.exits[row.exits as usize].weight(i),
                )
            });
            for (s2, w) in stay.into_iter().chain(exits) {
                let q2 = q * w as f64 / d;
                let t2 = t + 1;
                let row2 = &table.rows[s2];
                let c2 = row2.class as usize;
                if c2 != c {
                    raw[self.trans(t2, c, c2)] += q2;
                }
                if row2.absorbing {
                    raw[self.ended(s2)] += q2;
                    raw[l.empty(empty + row2.empty as usize * (turns + 1 - t2))] += q2;
                } else if t2 == turns {
                    raw[self.ended(s2)] += q2;
                    raw[l.empty(empty + row2.empty as usize)] += q2;
                } else {
                    *going
                        .entry((t2, s2, empty + row2.empty as usize))
                        .or_insert(0.0) += q2;
                }
            }
        }
        raw
    }
}

/// What a tally counts: trials (`u64`) or their chances (`f64`).
pub(super) trait Count:
    Copy
    + Default
    + PartialEq
    + std::ops::AddAssign
    + std::ops::SubAssign
    + std::ops::Sub<Output = Self>
    + std::iter::Sum
{
}
impl Count for u64 {}
impl Count for f64 {}
