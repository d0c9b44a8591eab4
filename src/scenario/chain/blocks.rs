//! Block tables: the turns after the opening, `k` turns per draw.

use super::*;

/// Chains of at most this many turns get block tables (see [`Blocks`]); longer ones (a rally
/// capped at 100 turns, a melee's round cap) spend their long stays in one dwell draw instead.
pub(super) const MAX_BLOCK_TURNS: usize = 64;
/// Most raw paths enumerated for one block table, and in all for one block length.
pub(super) const MAX_BLOCK_PATHS: usize = 1 << 12;
pub(super) const MAX_BLOCK_PATHS_ALL: usize = 1 << 16;
/// Most distinct records over all block tables (each is one counter of the tally).
pub(super) const MAX_BLOCK_RECORDS: usize = 1 << 14;
/// A record's "the trial ended in this block".
pub(super) const ENDED: u32 = u32::MAX;

/// The turns after the opening in blocks of `k`: a trial stands at turn `first + j·k` in some
/// state, and one draw from that (block, state)'s table gives its whole next `k` turns — every
/// distinct *record* of them (class changes at their turns, the final state if it ends, the
/// turns its place stood empty, where it carries on), with the exact integer weight of all the
/// dice sequences that make it. Paths with the same record are one outcome, and a table's
/// weights are divided by their common factor, so the tables stay small and exact.
#[derive(Debug, Clone)]
pub(super) struct Blocks {
    /// Turns per block (the last may be shorter).
    pub(super) k: usize,
    /// Number of compiled states (the stride of `at`).
    pub(super) states: usize,
    /// The table of (block j, state s) at `j · states + s`, `u32::MAX` when unreachable.
    pub(super) at: Vec<u32>,
    pub(super) tables: Vec<BlockTable>,
    pub(super) records: Vec<BlockRecord>,
    /// Tally increments of the records.
    pub(super) incs: Vec<u32>,
}

#[derive(Debug, Clone)]
pub(super) struct BlockTable {
    pub(super) weights: Weights,
    /// Index of its first record (its outcomes are records `first..first + len`).
    pub(super) first: u32,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct BlockRecord {
    /// Its tally increments are `incs[from..to]`.
    pub(super) from: u32,
    pub(super) to: u32,
    /// Turns of the block (to the turn cap, if it ended) its place stood empty.
    pub(super) empty: u32,
    /// The state it carries on from at the next block, or [`ENDED`].
    pub(super) cont: u32,
}

impl<C: Chain> ChainSim<C> {
    /// Block tables for the turns after the opening, with the longest block (from 2 turns)
    /// whose tables all fit; `None` for long chains, chains the opening covers, or when even
    /// blocks of 2 turns do not fit.
    pub(super) fn build_blocks(&self, table: &Table<C::State>) -> Option<Blocks> {
        let op = self.opening.as_ref()?;
        let turns = self.layout.turns;
        if turns > MAX_BLOCK_TURNS || op.turns >= turns {
            return None;
        }
        let mut best = None;
        for k in 2..=turns - op.turns {
            match self.blocks_of(table, op, k) {
                Some(b) => best = Some(b),
                None => break,
            }
        }
        best
    }

    /// The block tables of `k` turns, if they fit.
    pub(super) fn blocks_of(
        &self,
        table: &Table<C::State>,
        op: &Opening,
        k: usize,
    ) -> Option<Blocks> {
        use std::collections::BTreeSet;
        let turns = self.layout.turns;
        let n = table.states.len();
        let mut b = Blocks {
            k,
            states: n,
            at: Vec::new(),
            tables: Vec::new(),
            records: Vec::new(),
            incs: Vec::new(),
        };
        let mut enumerated = 0usize;
        let mut frontier: BTreeSet<u32> = op
            .paths
            .iter()
            .filter_map(|p| p.cont)
            .map(|c| c.state)
            .collect();
        let mut t0 = op.turns;
        while t0 < turns && !frontier.is_empty() {
            let len = k.min(turns - t0);
            let mut at = vec![u32::MAX; n];
            let mut next = BTreeSet::new();
            for &s in &frontier {
                at[s as usize] = b.tables.len() as u32;
                let first = b.records.len() as u32;
                let (weights, records) =
                    self.block_table(table, t0, s as usize, len, &mut b.incs, &mut enumerated)?;
                next.extend(records.iter().map(|r| r.cont).filter(|&c| c != ENDED));
                b.records.extend(records);
                b.tables.push(BlockTable { weights, first });
                if b.records.len() > MAX_BLOCK_RECORDS || enumerated > MAX_BLOCK_PATHS_ALL {
                    return None;
                }
            }
            b.at.extend(at);
            frontier = next;
            t0 += len;
        }
        Some(b)
    }

    /// The table of the `len` turns after turn `t0` from state `s0`: its records (their
    /// increments appended to `incs`) and their weights.
    pub(super) fn block_table(
        &self,
        table: &Table<C::State>,
        t0: usize,
        s0: usize,
        len: usize,
        incs: &mut Vec<u32>,
        enumerated: &mut usize,
    ) -> Option<(Weights, Vec<BlockRecord>)> {
        use std::collections::BTreeMap;
        let paths = table.paths(s0, len, MAX_BLOCK_PATHS)?;
        *enumerated += paths.len();
        let lcm = common_denominator(&paths)?;
        // Paths with the same record are one outcome: add their weights.
        let mut merged: BTreeMap<(Vec<u32>, u32, u32), u128> = BTreeMap::new();
        for (path, num, den) in &paths {
            let w = num.checked_mul(lcm / den)?;
            let key = self.path_record(table, t0, s0, path);
            let slot = merged.entry(key).or_insert(0);
            *slot = slot.checked_add(w)?;
        }
        let total = merged.values().try_fold(0u128, |a, &w| a.checked_add(w))?;
        assert_eq!(total, lcm, "a block's paths cover every dice sequence");
        let g = merged.values().fold(lcm, |g, &w| gcd128(g, w));
        let mut weights = Vec::with_capacity(merged.len());
        let mut records = Vec::with_capacity(merged.len());
        for ((rec_incs, empty, cont), w) in merged {
            weights.push(u64::try_from(w / g).ok()?);
            let from = incs.len() as u32;
            incs.extend(rec_incs);
            records.push(BlockRecord {
                from,
                to: incs.len() as u32,
                empty,
                cont,
            });
        }
        Some((Weights::new(weights)?, records))
    }

    /// The record of the turns from state `s0` after turn `t0` along `path` (the state after
    /// each of its turns), as a block or the opening counts them: the tally increments (class changes, and the final state if the trial
    /// ends in it), the turns the unit's place stood empty (to the turn cap if it ended), and
    /// the state it carries on from ([`ENDED`] if it ended).
    pub(super) fn path_record(
        &self,
        table: &Table<C::State>,
        t0: usize,
        s0: usize,
        path: &[u32],
    ) -> (Vec<u32>, u32, u32) {
        let turns = self.layout.turns;
        let mut incs = Vec::new();
        let mut c = table.rows[s0].class as usize;
        let mut empty = 0usize;
        let mut s = s0;
        for (i, &next) in path.iter().enumerate() {
            let t = t0 + i + 1;
            s = next as usize;
            let row = &table.rows[s];
            let c2 = row.class as usize;
            if c2 != c {
                incs.push(self.trans(t, c, c2) as u32);
            }
            if row.absorbing {
                empty += row.empty as usize * (turns + 1 - t);
                incs.push(self.ended(s) as u32);
                return (incs, empty as u32, ENDED);
            }
            empty += row.empty as usize;
            c = c2;
        }
        if t0 + path.len() == turns {
            incs.push(self.ended(s) as u32);
            return (incs, empty as u32, ENDED);
        }
        (incs, empty as u32, s as u32)
    }
}
