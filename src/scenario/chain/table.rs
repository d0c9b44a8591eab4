//! A chain compiled into per-state tables of integer-weighted transitions.

use super::*;

/// The most states a chain may have to be compiled into a table.
pub(super) const MAX_TABLE_STATES: usize = 1 << 16;

#[derive(Debug, Clone, Copy)]
pub(super) struct Row {
    /// Sum of the weights of this state's outcomes (0 for an absorbing state).
    pub(super) total: u64,
    /// Index of its exits' table in `exits` (absorbing states have none).
    pub(super) exits: u32,
    /// Index of its first edge (its exits only, when it has a dwell table).
    pub(super) first: u32,
    /// Number of those edges.
    pub(super) len: u32,
    /// Its class.
    pub(super) class: u32,
    /// Index into the dwell tables, or `NO_DWELL`.
    pub(super) dwell: u32,
    /// 1 when the unit's place stands empty in this state's class, else 0.
    pub(super) empty: u32,
    /// The trial ends on reaching this state.
    pub(super) absorbing: bool,
    /// Weight of staying in this state (its dwell), out of `total + stay`.
    pub(super) stay: u64,
}

pub(super) const NO_DWELL: u32 = u32::MAX;

/// For a state that stays put with chance q = w/D each turn: the turn on which it leaves,
/// k = 1..=block with weight w^(k−1)·(D−w)·D^(block−k), or "not within the block" with weight
/// w^block — exactly the chances of rolling the turns one by one, in one draw.
#[derive(Debug, Clone)]
pub(super) struct Dwell {
    /// `None` when the state never leaves (w = D).
    pub(super) table: Option<Weights>,
    pub(super) block: usize,
}

impl Dwell {
    pub(super) fn new(stay: u64, total: u64) -> Dwell {
        if stay == total {
            return Dwell {
                table: None,
                block: 0,
            };
        }
        let (w, d) = (u128::from(stay), u128::from(total));
        let mut block = 1usize;
        while d.pow(block as u32 + 1) <= u128::from(u64::MAX) && block < 64 {
            block += 1;
        }
        let mut weights: Vec<u64> = (1..=block)
            .map(|k| (w.pow(k as u32 - 1) * (d - w) * d.pow((block - k) as u32)) as u64)
            .collect();
        weights.push(w.pow(block as u32) as u64);
        let table = Weights::new(weights).expect("weights sum to D^block");
        debug_assert_eq!(u128::from(table.total()), d.pow(block as u32));
        Dwell {
            table: Some(table),
            block,
        }
    }
}

/// A chain compiled into per-state tables of integer-weighted transitions.
#[derive(Debug, Clone)]
pub(super) struct Table<S> {
    pub(super) states: Vec<S>,
    pub(super) rows: Vec<Row>,
    /// The weights of each state's exits (its edges in order), an alias table per state.
    pub(super) exits: Vec<Weights>,
    /// Where each edge leads.
    pub(super) next: Vec<u32>,
    pub(super) dwells: Vec<Dwell>,
}

/// A path of a trial's turns through a compiled table: the state after each turn, and its
/// chance as numerator and denominator (products of the rows' integer weights and totals).
pub(super) type Path = (Vec<u32>, u128, u128);

impl<S> Table<S> {
    /// Every path of `len` turns from state `s0` (shorter where it is absorbed), depth first;
    /// `None` past `max` paths or when a denominator passes 128 bits.
    pub(super) fn paths(&self, s0: usize, len: usize, max: usize) -> Option<Vec<Path>> {
        let mut paths: Vec<Path> = Vec::new();
        let mut stack: Vec<Path> = vec![(Vec::new(), 1, 1)];
        while let Some((path, num, den)) = stack.pop() {
            let s = path.last().map_or(s0, |&x| x as usize);
            let row = &self.rows[s];
            if path.len() == len || row.absorbing {
                paths.push((path, num, den));
                if paths.len() > max {
                    return None;
                }
                continue;
            }
            let den2 = den.checked_mul(u128::from(row.total + row.stay))?;
            if row.stay > 0 {
                let mut p = path.clone();
                p.push(s as u32);
                stack.push((p, num * u128::from(row.stay), den2));
            }
            for (i, e) in (row.first as usize..(row.first + row.len) as usize).enumerate() {
                let w = self.exits[row.exits as usize].weight(i);
                let mut p = path.clone();
                p.push(self.next[e]);
                stack.push((p, num * u128::from(w), den2));
            }
            if stack.len() > 4 * max {
                return None;
            }
        }
        Some(paths)
    }
}

/// The least common multiple of the paths' denominators, if it fits 128 bits.
pub(super) fn common_denominator(paths: &[Path]) -> Option<u128> {
    let mut lcm: u128 = 1;
    for (_, _, d) in paths {
        lcm = (lcm / gcd128(lcm, *d)).checked_mul(*d)?;
    }
    Some(lcm)
}

impl<S: Copy + Ord> Table<S> {
    pub(super) fn compile<C: Chain<State = S>>(
        chain: &C,
        watch: &crate::exact::Watch,
    ) -> crate::error::Result<Option<Self>> {
        match Self::compile_within(chain, watch) {
            Ok(t) => Ok(t),
            // A turn or a whole chain of too many branches is left to the dice (a bound on
            // counts, never on time: which sampler runs depends on the chain alone).
            Err(crate::error::Error::TooManyBranches { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn compile_within<C: Chain<State = S>>(
        chain: &C,
        watch: &crate::exact::Watch,
    ) -> crate::error::Result<Option<Self>> {
        use std::collections::BTreeMap;
        let mut index: BTreeMap<S, u32> = BTreeMap::new();
        let mut states = vec![chain.start()];
        index.insert(chain.start(), 0);
        let mut rows = Vec::new();
        let mut exits = Vec::new();
        let mut next: Vec<u32> = Vec::new();
        let mut dwells = Vec::new();
        let mut i = 0;
        while i < states.len() {
            let s = states[i];
            watch.check(None)?;
            let class = chain.class_of(s);
            let first = next.len() as u32;
            let info = chain.classes()[class];
            let mut row = Row {
                total: 0,
                exits: u32::MAX,
                first,
                len: 0,
                class: class as u32,
                dwell: NO_DWELL,
                empty: u32::from(info.empty),
                absorbing: info.absorbing,
                stay: 0,
            };
            if !info.absorbing {
                let Some((edges, total)) =
                    crate::exact::integer_transitions_within(chain, s, watch)?
                else {
                    return Ok(None);
                };
                let stay = edges.iter().find(|e| e.0 == s).map_or(0, |e| e.1);
                if stay > 0 {
                    row.dwell = dwells.len() as u32;
                    dwells.push(Dwell::new(stay, total));
                }
                row.total = total - stay;
                row.stay = stay;
                let mut weights = Vec::new();
                for (s2, w) in edges.into_iter().filter(|e| e.0 != s) {
                    let j = *index.entry(s2).or_insert_with(|| {
                        states.push(s2);
                        (states.len() - 1) as u32
                    });
                    weights.push(w);
                    next.push(j);
                }
                row.len = next.len() as u32 - first;
                if let Some(w) = Weights::new(weights) {
                    row.exits = exits.len() as u32;
                    exits.push(w);
                }
                if states.len() > MAX_TABLE_STATES {
                    return Ok(None);
                }
            }
            rows.push(row);
            i += 1;
        }
        Ok(Some(Table {
            states,
            rows,
            exits,
            next,
            dwells,
        }))
    }
}

pub(super) fn gcd128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
