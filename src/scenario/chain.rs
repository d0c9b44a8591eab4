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

use crate::dice::{Dice, Roll, Weights};
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
    /// True when every trial must end within the turns (a melee's rounds): a chance of still
    /// going at the cap is then an error, not an outcome.
    fn must_finish(&self) -> bool {
        false
    }
    /// False for chains too large to solve exactly or to compile into tables (`engagement`,
    /// `line`): they run by Monte Carlo with the dice sampler only.
    fn exact(&self) -> bool {
        true
    }
    /// The rule invariants of one turn from `from` to `to` (see [`super::invariants`]): counts
    /// within their bounds, legal moves between states, removed units frozen. Every chain
    /// states its own; [`super::invariants::audit`] checks them over reachable and sampled
    /// turns.
    ///
    /// # Errors
    /// What broke, in words.
    fn check_step(&self, from: Self::State, to: Self::State) -> super::invariants::Check;
    /// Integers read off the state after every turn and reported as per-turn means (gaps in a
    /// line, units lost …). Only for chains that are not solved exactly.
    fn series(&self) -> &[ValueInfo] {
        &[]
    }
    /// Series `i` of state `s` (at most `series()[i].max`).
    fn series_of(&self, _s: Self::State, _i: usize) -> u32 {
        0
    }
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

/// How a [`ChainSim`] draws each turn of a trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Sampler {
    /// Each turn's outcome is drawn from that state's exact one-turn distribution, compiled
    /// from the rules code with integer weights that count dice sequences: one unbiased draw a
    /// turn, with exactly the probabilities of rolling the dice. Falls back to `Dice` when a
    /// state's denominator does not fit 64 bits or the chain has too many states.
    #[default]
    Table,
    /// The rules code runs every turn and rolls every die.
    Dice,
}

impl Sampler {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Sampler::Table => "table",
            Sampler::Dice => "dice",
        }
    }
    /// Parse `table` or `dice`.
    pub fn parse(s: &str) -> Option<Sampler> {
        [Sampler::Table, Sampler::Dice]
            .into_iter()
            .find(|x| x.name() == s)
    }
}

/// The most states a chain may have to be compiled into a table.
pub const MAX_TABLE_STATES: usize = 1 << 16;

#[derive(Debug, Clone, Copy)]
struct Row {
    /// Sum of the weights of this state's outcomes (0 for an absorbing state).
    total: u64,
    /// Index of its exits' table in `exits` (absorbing states have none).
    exits: u32,
    /// Index of its first edge (its exits only, when it has a dwell table).
    first: u32,
    /// Number of those edges.
    len: u32,
    /// Its class.
    class: u32,
    /// Index into the dwell tables, or `NO_DWELL`.
    dwell: u32,
    /// 1 when the unit's place stands empty in this state's class, else 0.
    empty: u32,
    /// The trial ends on reaching this state.
    absorbing: bool,
    /// Weight of staying in this state (its dwell), out of `total + stay`.
    stay: u64,
}

const NO_DWELL: u32 = u32::MAX;

/// For a state that stays put with chance q = w/D each turn: the turn on which it leaves,
/// k = 1..=block with weight w^(k−1)·(D−w)·D^(block−k), or "not within the block" with weight
/// w^block — exactly the chances of rolling the turns one by one, in one draw.
#[derive(Debug, Clone)]
struct Dwell {
    /// `None` when the state never leaves (w = D).
    table: Option<Weights>,
    block: usize,
}

impl Dwell {
    fn new(stay: u64, total: u64) -> Dwell {
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
struct Table<S> {
    states: Vec<S>,
    rows: Vec<Row>,
    /// The weights of each state's exits (its edges in order), an alias table per state.
    exits: Vec<Weights>,
    /// Where each edge leads.
    next: Vec<u32>,
    dwells: Vec<Dwell>,
}

/// A path of a trial's turns through a compiled table: the state after each turn, and its
/// chance as numerator and denominator (products of the rows' integer weights and totals).
type Path = (Vec<u32>, u128, u128);

impl<S> Table<S> {
    /// Every path of `len` turns from state `s0` (shorter where it is absorbed), depth first;
    /// `None` past `max` paths or when a denominator passes 128 bits.
    fn paths(&self, s0: usize, len: usize, max: usize) -> Option<Vec<Path>> {
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
fn common_denominator(paths: &[Path]) -> Option<u128> {
    let mut lcm: u128 = 1;
    for (_, _, d) in paths {
        lcm = (lcm / gcd128(lcm, *d)).checked_mul(*d)?;
    }
    Some(lcm)
}

impl<S: Copy + Ord> Table<S> {
    fn compile<C: Chain<State = S>>(chain: &C) -> Option<Self> {
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
                let (edges, total) = crate::exact::integer_transitions(chain, s)?;
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
                    return None;
                }
            }
            rows.push(row);
            i += 1;
        }
        Some(Table {
            states,
            rows,
            exits,
            next,
            dwells,
        })
    }
}

/// Runs a [`Chain`]'s trials for the engine.
///
/// Its tally is the chain's [`Layout`]; with the table sampler, trials record when they enter
/// and leave each class (not every turn) and which compiled state they end in, after the
/// layout, and [`ChainSim::finish`] folds those into the layout.
#[derive(Debug, Clone)]
pub struct ChainSim<C: Chain> {
    /// The chain.
    pub chain: C,
    /// Its tally layout.
    pub layout: Layout,
    absorbing: u64,
    empty: u64,
    table: Option<Table<C::State>>,
    opening: Option<Opening>,
    blocks: Option<Blocks>,
}

/// Most paths an opening table may hold.
const MAX_OPENING_PATHS: usize = 4096;

/// Every path of a trial's first turns, drawn in one go: each path's exact weight and the
/// tally increments it makes, and where a trial that outlives the opening carries on.
#[derive(Debug, Clone)]
struct Opening {
    turns: usize,
    table: Weights,
    paths: Vec<OpeningPath>,
    incs: Vec<u32>,
}

#[derive(Debug, Clone, Copy)]
struct OpeningPath {
    /// Its tally increments are `incs[from..to]`.
    from: u32,
    to: u32,
    /// Where the trial carries on after the opening (`None`: it ended within it).
    cont: Option<Cont>,
}

/// Where a trial that outlived its opening carries on: its state, and the turns its place
/// stood empty so far.
#[derive(Debug, Clone, Copy)]
struct Cont {
    state: u32,
    empty: u32,
}

/// Chains of at most this many turns get block tables (see [`Blocks`]); longer ones (a rally
/// capped at 100 turns, a melee's round cap) spend their long stays in one dwell draw instead.
const MAX_BLOCK_TURNS: usize = 64;
/// Most raw paths enumerated for one block table, and in all for one block length.
const MAX_BLOCK_PATHS: usize = 1 << 12;
const MAX_BLOCK_PATHS_ALL: usize = 1 << 16;
/// Most distinct records over all block tables (each is one counter of the tally).
const MAX_BLOCK_RECORDS: usize = 1 << 14;
/// A record's "the trial ended in this block".
const ENDED: u32 = u32::MAX;

/// The turns after the opening in blocks of `k`: a trial stands at turn `first + j·k` in some
/// state, and one draw from that (block, state)'s table gives its whole next `k` turns — every
/// distinct *record* of them (class changes at their turns, the final state if it ends, the
/// turns its place stood empty, where it carries on), with the exact integer weight of all the
/// dice sequences that make it. Paths with the same record are one outcome, and a table's
/// weights are divided by their common factor, so the tables stay small and exact.
#[derive(Debug, Clone)]
struct Blocks {
    /// Turns per block (the last may be shorter).
    k: usize,
    /// Number of compiled states (the stride of `at`).
    states: usize,
    /// The table of (block j, state s) at `j · states + s`, `u32::MAX` when unreachable.
    at: Vec<u32>,
    tables: Vec<BlockTable>,
    records: Vec<BlockRecord>,
    /// Tally increments of the records.
    incs: Vec<u32>,
}

#[derive(Debug, Clone)]
struct BlockTable {
    weights: Weights,
    /// Index of its first record (its outcomes are records `first..first + len`).
    first: u32,
}

#[derive(Debug, Clone, Copy)]
struct BlockRecord {
    /// Its tally increments are `incs[from..to]`.
    from: u32,
    to: u32,
    /// Turns of the block (to the turn cap, if it ended) its place stood empty.
    empty: u32,
    /// The state it carries on from at the next block, or [`ENDED`].
    cont: u32,
}

impl<C: Chain> ChainSim<C> {
    /// Wrap a chain (at most 64 classes) with the table sampler where it compiles.
    pub fn new(chain: C) -> Self {
        Self::with_sampler(chain, Sampler::Table)
    }

    /// Wrap a chain with the given sampler.
    pub fn with_sampler(chain: C, sampler: Sampler) -> Self {
        let layout = Layout::of(&chain);
        let mut absorbing = 0u64;
        let mut empty = 0u64;
        for (i, c) in chain.classes().iter().enumerate() {
            absorbing |= u64::from(c.absorbing) << i;
            empty |= u64::from(c.empty) << i;
        }
        let table = match sampler {
            Sampler::Table if chain.exact() && chain.series().is_empty() => Table::compile(&chain),
            _ => None,
        };
        let mut sim = ChainSim {
            chain,
            layout,
            absorbing,
            empty,
            table,
            opening: None,
            blocks: None,
        };
        if let Some(table) = &sim.table {
            // The longest opening that fits. Its paths and their common denominator only grow
            // with its length, so once a length does not fit no longer one does: search upwards
            // and stop at the first failure (a failed attempt costs as much as the largest
            // opening that fits; searching down from 24 paid that for every length too long).
            let turns = sim.layout.turns;
            let mut best = None;
            for k in 1..=turns.min(24) {
                match sim.build_opening(table, k) {
                    Some(op) => best = Some(op),
                    None => break,
                }
            }
            sim.opening = best;
            sim.blocks = sim.build_blocks(table);
        }
        sim
    }

    /// Block tables for the turns after the opening, with the longest block (from 2 turns)
    /// whose tables all fit; `None` for long chains, chains the opening covers, or when even
    /// blocks of 2 turns do not fit.
    fn build_blocks(&self, table: &Table<C::State>) -> Option<Blocks> {
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
    fn blocks_of(&self, table: &Table<C::State>, op: &Opening, k: usize) -> Option<Blocks> {
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
    fn block_table(
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
    fn path_record(
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

    /// The opening table of the first `k` turns, if its paths are few enough and their
    /// common denominator fits 64 bits.
    fn build_opening(&self, table: &Table<C::State>, k: usize) -> Option<Opening> {
        if table.rows[0].absorbing {
            return None;
        }
        let paths = table.paths(0, k, MAX_OPENING_PATHS)?;
        let lcm = common_denominator(&paths)?;
        let lcm = u64::try_from(lcm).ok()?;
        let mut weights = Vec::with_capacity(paths.len());
        let mut records = Vec::with_capacity(paths.len());
        let mut incs = Vec::new();
        for (path, num, den) in &paths {
            weights.push(u64::try_from(num * (u128::from(lcm) / den)).ok()?);
            let from = incs.len() as u32;
            let cont = self.replay(table, path, &mut incs);
            records.push(OpeningPath {
                from,
                to: incs.len() as u32,
                cont,
            });
        }
        let table_w = Weights::new(weights)?;
        assert_eq!(
            table_w.total(),
            lcm,
            "an opening's paths cover every dice sequence"
        );
        Some(Opening {
            turns: k,
            table: table_w,
            paths: records,
            incs,
        })
    }

    /// The tally increments of a trial that visits `path` (the state after each turn), as the
    /// table sampler records them, and where it stands afterwards if it has not ended.
    fn replay(&self, table: &Table<C::State>, path: &[u32], incs: &mut Vec<u32>) -> Option<Cont> {
        let (record, empty, cont) = self.path_record(table, 0, 0, path);
        incs.extend(record);
        if cont == ENDED {
            incs.push(self.layout.empty(empty as usize) as u32);
            return None;
        }
        Some(Cont { state: cont, empty })
    }

    /// The sampler in use (the table sampler falls back to dice when the chain does not compile).
    pub fn sampler(&self) -> Sampler {
        if self.table.is_some() {
            Sampler::Table
        } else {
            Sampler::Dice
        }
    }

    /// Index of "moved from class `from` to class `to` on turn `t`" in the table sampler's raw
    /// tally (`t` in 1..=turns).
    #[inline(always)]
    fn trans(&self, t: usize, from: usize, to: usize) -> usize {
        let c = self.layout.classes;
        self.layout.len() + ((t - 1) * c + from) * c + to
    }

    /// Index of "ended in compiled state `k`" in the table sampler's raw tally.
    #[inline(always)]
    fn ended(&self, k: usize) -> usize {
        let c = self.layout.classes;
        self.layout.len() + self.layout.turns * c * c + k
    }

    /// Index of "took opening path `p`" in the table sampler's raw tally.
    #[inline(always)]
    fn opening_count(&self, table: &Table<C::State>, p: usize) -> usize {
        self.ended(table.states.len()) + p
    }

    /// Index of "drew block record `r`" in the table sampler's raw tally (after the opening's).
    #[inline(always)]
    fn block_count(&self, table: &Table<C::State>, op: &Opening, r: usize) -> usize {
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
    fn fold<T: Count>(&self, raw: &[T]) -> Vec<T> {
        let l = &self.layout;
        let Some(table) = &self.table else {
            return raw.to_vec();
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
    pub fn check_tables(&self) -> Result<(), String> {
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
    fn table_chances(&self, table: &Table<C::State>) -> Vec<f64> {
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

    /// Run one trial by rolling every die through the rules code, adding into `tally`.
    #[inline(always)]
    pub fn trial<R: Roll>(&self, r: &mut R, tally: &mut [u64]) {
        let l = &self.layout;
        let turns = l.turns;
        let series = l.series();
        let add_series = |s: C::State, t: usize, tally: &mut [u64]| {
            for i in 0..series {
                let v = u64::from(self.chain.series_of(s, i));
                let at = l.series_sum(i, t);
                tally[at] += v;
                tally[at + 1] += v * v;
            }
        };
        let mut s = self.chain.start();
        let mut c = self.chain.class_of(s);
        let mut empty_turns = 0usize;
        let mut ended_at = 0;
        if self.absorbing >> c & 1 == 1 {
            tally[l.absorbed(c, 0)] += 1;
            empty_turns = turns * (self.empty >> c & 1) as usize;
        } else {
            for t in 1..=turns {
                s = self.chain.step(s, r);
                c = self.chain.class_of(s);
                let is_empty = (self.empty >> c & 1) as usize;
                if series > 0 {
                    add_series(s, t, tally);
                }
                ended_at = t;
                if self.absorbing >> c & 1 == 1 {
                    tally[l.absorbed(c, t)] += 1;
                    empty_turns += is_empty * (turns - t + 1);
                    break;
                }
                tally[l.live(t, c)] += 1;
                empty_turns += is_empty;
            }
        }
        // An ended trial keeps its last state: read each series once, add it to every turn left.
        for i in 0..series {
            let v = u64::from(self.chain.series_of(s, i));
            for t in ended_at + 1..=turns {
                let at = l.series_sum(i, t);
                tally[at] += v;
                tally[at + 1] += v * v;
            }
        }
        tally[l.final_(c)] += 1;
        tally[l.empty(empty_turns)] += 1;
        for i in 0..self.chain.values().len() {
            tally[l.value(i, self.chain.value_of(s, i) as usize)] += 1;
        }
    }

    /// Run one trial from the compiled table, adding into `tally`: its opening in one draw
    /// when there is an opening table, then turn by turn.
    #[inline(always)]
    fn table_trial(&self, table: &Table<C::State>, dice: &mut Dice, tally: &mut [u64]) {
        let l = &self.layout;
        if let Some(op) = &self.opening {
            // Count the path; its increments are added once per path in `finish`.
            let p = dice.pick(&op.table);
            tally[self.opening_count(table, 0) + p] += 1;
            if let Some(cont) = op.paths[p].cont {
                match &self.blocks {
                    Some(b) => self.run_blocks(table, op, b, dice, tally, cont),
                    None => self.run_from(table, dice, tally, cont, op.turns),
                }
            }
            return;
        }
        let row = &table.rows[0];
        if row.absorbing {
            tally[l.absorbed(row.class as usize, 0)] += 1;
            tally[l.empty(l.turns * row.empty as usize)] += 1;
            tally[self.ended(0)] += 1;
            return;
        }
        let start = Cont { state: 0, empty: 0 };
        self.run_from(table, dice, tally, start, 0);
    }

    /// Carry a trial on from `cont` after the opening to its end, a block at a time: one draw
    /// and one count a block, and the empty-turns count once at the end.
    #[inline(always)]
    fn run_blocks(
        &self,
        table: &Table<C::State>,
        op: &Opening,
        b: &Blocks,
        dice: &mut Dice,
        tally: &mut [u64],
        cont: Cont,
    ) {
        let counts = self.block_count(table, op, 0);
        let mut s = cont.state as usize;
        let mut empty = cont.empty as usize;
        let mut at = 0;
        loop {
            let bt = &b.tables[b.at[at + s] as usize];
            let r = bt.first as usize + dice.pick(&bt.weights);
            tally[counts + r] += 1;
            let rec = &b.records[r];
            empty += rec.empty as usize;
            if rec.cont == ENDED {
                break;
            }
            s = rec.cont as usize;
            at += b.states;
        }
        tally[self.layout.empty(empty)] += 1;
    }

    /// Carry a trial on from `cont` after `t` turns, to its end.
    ///
    /// Only class changes are recorded; a state that may stay put draws how long it stays
    /// from its dwell table.
    #[inline(always)]
    fn run_from(
        &self,
        table: &Table<C::State>,
        dice: &mut Dice,
        tally: &mut [u64],
        cont: Cont,
        mut t: usize,
    ) {
        let l = &self.layout;
        let turns = l.turns;
        let classes = l.classes;
        let trans0 = self.trans(1, 0, 0);
        let ended0 = self.ended(0);
        let mut s = cont.state as usize;
        let mut row = &table.rows[s];
        // The current class and its emptiness, the turn from which the unit is in it (the next
        // one: the turns so far are in `cont.empty`), and the turns its place stood empty
        // before that.
        let mut c = row.class as usize;
        let mut c_empty = row.empty as usize;
        let mut since = t + 1;
        let mut empty_turns = cont.empty as usize;
        loop {
            if row.dwell != NO_DWELL {
                // Turns spent staying in `s` before it leaves on the turn after.
                let dwell = &table.dwells[row.dwell as usize];
                match &dwell.table {
                    None => t = turns,
                    Some(dt) => loop {
                        let k = dice.pick(dt);
                        t += k;
                        if k < dwell.block || t >= turns {
                            break;
                        }
                    },
                }
                if t >= turns {
                    break;
                }
            }
            t += 1;
            let mut e = row.first as usize;
            if row.len > 1 {
                e += dice.pick(&table.exits[row.exits as usize]);
            }
            s = table.next[e] as usize;
            row = &table.rows[s];
            let c2 = row.class as usize;
            if c2 != c {
                tally[trans0 + ((t - 1) * classes + c) * classes + c2] += 1;
                empty_turns += c_empty * (t - since);
                if row.absorbing {
                    empty_turns += row.empty as usize * (turns + 1 - t);
                    tally[ended0 + s] += 1;
                    tally[l.empty(empty_turns)] += 1;
                    return;
                }
                c = c2;
                c_empty = row.empty as usize;
                since = t;
            }
            if t >= turns {
                break;
            }
        }
        // Reached the turn cap in class `c`, there since turn `since`.
        empty_turns += c_empty * (turns + 1 - since);
        tally[ended0 + s] += 1;
        tally[l.empty(empty_turns)] += 1;
    }
}

/// What a tally counts: trials (`u64`) or their chances (`f64`).
trait Count:
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

fn gcd128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl<C: Chain> Sim for ChainSim<C> {
    fn tally_len(&self) -> usize {
        match (&self.table, &self.opening) {
            (Some(t), Some(op)) => match &self.blocks {
                Some(b) => self.block_count(t, op, b.records.len()),
                None => self.opening_count(t, op.paths.len()),
            },
            (Some(t), None) => self.ended(t.states.len()),
            (None, _) => self.layout.len(),
        }
    }
    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
        match &self.table {
            Some(table) => {
                for _ in 0..n {
                    self.table_trial(table, dice, tally);
                }
            }
            None => {
                for _ in 0..n {
                    self.trial(dice, tally);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::fire::Fire;
    use crate::system::effectiveness::rules::{Class, Status, Unit, UnitState};
    use crate::system::effectiveness::under_fire::{EfUnderFire, Enemy};

    /// The effectiveness bench case: a Regular unit under 4 dice at 5+ for 12 turns, 2 hits a
    /// quarter, with the retreat amendment and a retreat blocked 1 time in 6.
    fn ef_under_fire(turns: u32) -> EfUnderFire {
        let unit = Unit {
            class: Class::Regular,
            general: false,
            supported: false,
            natural_one_fails: false,
            return_on: 5,
        };
        let start = UnitState {
            status: Status::InLine,
            quarters: 4,
            hits: 0,
        };
        let enemy = Enemy {
            unit,
            fire: Fire::dice(4, 5),
        };
        let blocked = Weights::new(vec![5, 1]);
        EfUnderFire::new(
            unit,
            start,
            turns,
            Fire::dice(4, 5),
            2,
            true,
            enemy,
            blocked,
            false,
        )
    }

    #[test]
    fn blocks_cover_the_turns_after_the_opening_with_the_exact_chances() {
        for turns in [1, 2, 5, 12, 24] {
            let sim = ChainSim::new(ef_under_fire(turns));
            let op = sim.opening.as_ref().expect("an opening");
            match &sim.blocks {
                Some(b) => assert!(b.k >= 2 && op.turns < turns as usize),
                None => assert!(op.turns >= turns as usize, "{turns} turns: no blocks"),
            }
            sim.check_tables().unwrap();
        }
    }

    #[test]
    fn check_tables_catches_a_wrong_weight() {
        let mut sim = ChainSim::new(ef_under_fire(12));
        let b = sim.blocks.as_mut().expect("blocks");
        // Move half the weight of the likeliest outcome of the first table with two or more
        // outcomes to another outcome (the total, and so every other check, unchanged).
        let bt = b.tables.iter_mut().find(|t| t.weights.len() > 1).unwrap();
        let mut w: Vec<u64> = (0..bt.weights.len())
            .map(|i| bt.weights.weight(i))
            .collect();
        let i = (0..w.len()).max_by_key(|&i| w[i]).unwrap();
        let j = (i + 1) % w.len();
        let moved = w[i] / 2;
        w[i] -= moved;
        w[j] += moved;
        bt.weights = Weights::new(w).unwrap();
        let err = sim.check_tables().unwrap_err();
        assert!(err.contains("exact solution"), "{err}");
    }

    #[test]
    fn block_and_turn_by_turn_samplers_agree_in_distribution() {
        // The same chain with and without blocks: every cell of 2^20 trials of each is within
        // what two binomial samples of the same chance allow (|a − b| ≤ 5.5 σ of the
        // difference, a two-sided level near 4e-8 per cell).
        let with = ChainSim::new(ef_under_fire(12));
        let mut without = with.clone();
        without.blocks = None;
        let n = 1u64 << 20;
        let run = |sim: &ChainSim<EfUnderFire>| {
            let mut raw = vec![0u64; sim.tally_len()];
            let mut dice = Dice::for_chunk(11, 0, 0);
            sim.run_chunk(&mut dice, n, &mut raw);
            sim.finish(&raw)
        };
        let (a, b) = (run(&with), run(&without));
        let exact = crate::exact::solve_chain(&with.chain, "t").unwrap();
        for (i, p) in exact.iter().enumerate() {
            let sd = (2.0 * p * (1.0 - p) / n as f64).sqrt();
            let d = (a[i] as f64 - b[i] as f64) / n as f64;
            assert!(
                d.abs() <= 5.5 * sd + 1e-12,
                "cell {i}: {} v {} (p {p})",
                a[i],
                b[i]
            );
        }
    }
}
