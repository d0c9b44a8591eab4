//! [`ChainSim`]: a chain's trials for the engine, by dice or by its compiled tables.

use super::*;
use std::hint::select_unpredictable;

/// Series read in one pass ([`Chain::series_all`]) up to this many; more are read one by one.
const SERIES_AT_ONCE: usize = 16;

/// Values read in one pass ([`Chain::values_all`]) up to this many; more are read one by one.
const VALUES_AT_ONCE: usize = 32;

/// How a [`ChainSim`] draws each turn of a trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Sampler {
    /// Each turn's outcome is drawn from that state's exact one-turn distribution, compiled
    /// from the rules code with integer weights that count dice sequences: one unbiased draw a
    /// turn, with exactly the probabilities of rolling the dice. Falls back to `Dice` when a
    /// state's denominator does not fit 64 bits or the chain has too many states. A chain with
    /// per-turn series (an engagement) is compiled by its cores instead (`Fight`): a trial is
    /// its core's number and its accumulated number, drawing each turn its core's move, whose
    /// weight is exact where the turn's dice sequences fit 64 bits and its chance rounded to
    /// 2^−35 or finer where not (a melee fought to its end within the turn).
    #[default]
    Table,
    /// Every die the rules code calls for is rolled, in its order, every turn. Where the
    /// chain compiles, each state's turn is the tree of those draws, worked out once from the
    /// rules code (a trial follows it die by die, to the same states as the code and the same
    /// tally to the bit); elsewhere the rules code itself runs every turn.
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
    pub(super) absorbing: u64,
    pub(super) empty: u64,
    pub(super) table: Option<Table<C::State>>,
    pub(super) opening: Option<Opening>,
    pub(super) blocks: Option<Blocks>,
    /// The dice sampler's replay trees (with `table` for the states they lead to).
    pub(super) trees: Option<Trees>,
    /// The table sampler of a chain with per-turn series: its cores' moves.
    pub(super) fight: Option<Fight<C::State>>,
}

/// The most branches of chance the table sampler's compilation takes over all its states'
/// turns: past it the chain runs by dice (about 16 million: tens of seconds of a mechanic
/// file's turns, milliseconds of the built-in systems', which come nowhere near it).
pub const MAX_COMPILE_BRANCHES: u64 = 1 << 24;

/// The least time the table sampler's compilation is given, whatever the exact budget: a small
/// `--exact-budget` skips a slow exact solve and still leaves the Monte Carlo its tables.
pub const MIN_COMPILE_BUDGET: f64 = 10.0;

/// The size of the array of counts by turn and key of [`ChainSim::keyed_tree_trials`]: 64 KiB,
/// of which a walk touches only the rows of the turns it is at (a Rank & File unit under fire,
/// 36 keys over 12 turns with its empty turns counted, needs 5,616 counts).
const KEYED_COUNTS: usize = 1 << 13;

/// The counts of one turn in [`ChainSim::keyed_tree_trials`] for `k` keys and `turns` turns:
/// with `EMPTY`, a row of keys for each number of empty turns before it.
fn keyed_stride<const EMPTY: bool>(k: usize, turns: usize) -> usize {
    match EMPTY {
        true => (turns + 1) * k,
        false => k,
    }
}

/// Where a walk of trials back to back goes at the turn cap: back to the start, all the turns
/// ahead (out of line, so that the compiler keeps the cap a branch and not a select that the
/// next turn's die would wait on).
#[cold]
#[inline(never)]
fn cap<A>(start: A, turns: usize) -> (A, usize, usize) {
    (start, turns, 0)
}

impl<C: Chain> ChainSim<C> {
    /// Wrap a chain (at most 64 classes) with the given sampler; the table sampler falls back
    /// to dice where the chain does not compile.
    pub fn with_sampler(chain: C, sampler: Sampler) -> Self {
        Self::with_sampler_within(chain, sampler, &|| false, None)
            .expect("a chain never cancelled and with no budget compiles or falls back to dice")
    }

    /// [`ChainSim::with_sampler`], stopped when `cancelled` says so (read after every branch
    /// of every turn enumerated) and, for the table sampler, when compiling its tables takes
    /// more than `budget_s` seconds. A turn of more than [`crate::exact::MAX_TURN_BRANCHES`]
    /// branches, or tables of more than [`MAX_COMPILE_BRANCHES`] in all, are left to the dice:
    /// which sampler runs depends on the chain alone, never on time. The dice sampler past its
    /// budget draws without its replay trees, which draw the same dice: the same numbers.
    ///
    /// # Errors
    /// [`crate::error::Error::Cancelled`]; [`crate::error::Error::TablesOverBudget`] for the
    /// table sampler past its budget.
    pub fn with_sampler_within(
        chain: C,
        sampler: Sampler,
        cancelled: &dyn Fn() -> bool,
        budget_s: Option<f64>,
    ) -> crate::error::Result<Self> {
        let layout = Layout::of(&chain);
        let mut absorbing = 0u64;
        let mut empty = 0u64;
        for (i, c) in chain.classes().iter().enumerate() {
            absorbing |= u64::from(c.absorbing) << i;
            empty |= u64::from(c.empty) << i;
        }
        let watch = crate::exact::Watch {
            scenario: "",
            cancelled,
            budget: budget_s.map(|b| (std::time::Instant::now(), b)),
            max_branches: crate::exact::MAX_TURN_BRANCHES,
            max_moves: usize::MAX,
            // A fight's table (a chain with series) is bounded lower: see MAX_FIGHT_BRANCHES.
            max_total: match chain.series().is_empty() {
                true => MAX_COMPILE_BRANCHES,
                false => MAX_FIGHT_BRANCHES,
            },
            taken: std::cell::Cell::new(0),
        };
        let fight = match sampler == Sampler::Table && chain.exact() && !chain.series().is_empty() {
            true => match Fight::compile(&chain, &watch) {
                Ok(Some(mut f)) => {
                    f.place_values(chain.values().len(), |i, v| layout.value(i, v));
                    Some(f)
                }
                Ok(None) => None,
                // A fight whose table would take longer than its budget to compile (units of
                // 40 stands, whose every turn holds melees fought out) is played by the dice
                // instead, as one past the table's bounds is, and the report says so: its
                // trials are as good, only slower.
                Err(crate::error::Error::OverBudget { .. }) => None,
                Err(e) => return Err(e),
            },
            false => None,
        };
        let table = match chain.exact() && chain.series().is_empty() {
            true => match Table::compile(&chain, &watch) {
                Ok(t) => t,
                Err(crate::error::Error::OverBudget { budget_s, .. }) => match sampler {
                    Sampler::Dice => None,
                    Sampler::Table => {
                        return Err(crate::error::Error::TablesOverBudget { budget_s });
                    }
                },
                Err(e) => return Err(e),
            },
            false => None,
        };
        // The dice sampler keeps the compiled states only for its trees.
        let (table, trees) = match (sampler, table) {
            (Sampler::Dice, Some(t)) => match Trees::build(&chain, &t) {
                Some(trees) => (Some(t), Some(trees)),
                None => (None, None),
            },
            (_, t) => (t, None),
        };
        let mut sim = ChainSim {
            chain,
            layout,
            absorbing,
            empty,
            table,
            opening: None,
            blocks: None,
            trees,
            fight,
        };
        if let (Some(table), None) = (&sim.table, &sim.trees) {
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
        if cancelled() {
            return Err(crate::error::Error::Cancelled);
        }
        Ok(sim)
    }

    /// True when the table sampler runs from a fight's table (compiled by cores: a chain with
    /// per-turn series), whose states may be far more than a table's.
    pub fn compiled_by_cores(&self) -> bool {
        self.fight.is_some()
    }

    /// The sampler in use (the table sampler falls back to dice when the chain does not compile).
    pub fn sampler(&self) -> Sampler {
        if (self.table.is_some() && self.trees.is_none()) || self.fight.is_some() {
            Sampler::Table
        } else {
            Sampler::Dice
        }
    }

    /// Run one trial by rolling every die through the rules code, adding into `tally`.
    #[inline(always)]
    pub fn trial<R: Roll>(&self, r: &mut R, tally: &mut [u64]) {
        let walk = StateWalk {
            chain: &self.chain,
            s: self.chain.start(),
            r,
        };
        self.walk_trial(tally, walk);
    }

    /// Run one trial from a fight's table, adding into `tally` as [`ChainSim::trial`] does:
    /// each turn draws its core's move and adds up what the trial accumulated.
    #[inline(always)]
    fn fight_trial(&self, fight: &Fight<C::State>, dice: &mut Dice, tally: &mut [u64]) {
        let walk = CoreWalk {
            chain: &self.chain,
            fight,
            dice,
            core: 0,
            acc: fight.start_acc,
            n_series: self.layout.series(),
            n_slots: fight.slots_per_core(self.chain.values().len()),
        };
        self.walk_trial(tally, walk);
    }

    /// One trial of the chain's turns, walked by `w`, adding into `tally`.
    #[inline(always)]
    fn walk_trial(&self, tally: &mut [u64], mut w: impl Trial<C>) {
        let l = &self.layout;
        let turns = l.turns;
        let series = l.series();
        // Every series read in one pass over the state (a battle's line: gaps, units lost and
        // shaken, both sides), not one pass each.
        let mut read = [0u32; SERIES_AT_ONCE];
        let mut c = w.class();
        let mut empty_turns = 0usize;
        let mut ended_at = 0;
        if self.absorbing >> c & 1 == 1 {
            tally[l.absorbed(c, 0)] += 1;
            empty_turns = turns * (self.empty >> c & 1) as usize;
        } else {
            for t in 1..=turns {
                w.step();
                c = w.class();
                let is_empty = (self.empty >> c & 1) as usize;
                if let Some(kept) = w.series_kept() {
                    for (i, &v) in kept.iter().enumerate() {
                        let v = u64::from(v);
                        let at = l.series_sum(i, t);
                        tally[at] += v;
                        tally[at + 1] += v * v;
                    }
                } else if (1..=SERIES_AT_ONCE).contains(&series) {
                    w.series_all(&mut read[..series]);
                    for (i, &v) in read[..series].iter().enumerate() {
                        let v = u64::from(v);
                        let at = l.series_sum(i, t);
                        tally[at] += v;
                        tally[at + 1] += v * v;
                    }
                } else if series > SERIES_AT_ONCE {
                    for i in 0..series {
                        let v = u64::from(w.series_of(i));
                        let at = l.series_sum(i, t);
                        tally[at] += v;
                        tally[at + 1] += v * v;
                    }
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
        // An ended trial keeps its last state: read each series once, and record it for every
        // turn left.
        // (Read already with the others at its last turn, when there was one.)
        let read_already = series <= SERIES_AT_ONCE && ended_at > 0 && w.series_kept().is_none();
        for i in 0..series {
            let v = u64::from(if read_already {
                read.get(i).copied().unwrap_or(0)
            } else {
                w.series_of(i)
            });
            // Once, from the turn after the last: the fold adds it to every turn from there.
            if ended_at < turns {
                let at = self.tail(i, ended_at + 1);
                tally[at] += v;
                tally[at + 1] += v * v;
            }
        }
        tally[l.final_(c)] += 1;
        tally[l.empty(empty_turns)] += 1;
        let values = self.chain.values().len();
        if let Some((places, accumulated)) = w.value_places() {
            for &p in places {
                tally[p as usize] += 1;
            }
            for &i in accumulated {
                tally[l.value(i, w.accumulated_value(i) as usize)] += 1;
            }
        } else if values <= VALUES_AT_ONCE {
            let mut read = [0u32; VALUES_AT_ONCE];
            w.values_all(&mut read[..values]);
            for (i, &v) in read[..values].iter().enumerate() {
                tally[l.value(i, v as usize)] += 1;
            }
        } else {
            let s = w.state();
            for i in 0..values {
                tally[l.value(i, self.chain.value_of(s, i) as usize)] += 1;
            }
        }
    }

    /// Run one trial from the compiled table, adding into `tally`: its opening in one draw
    /// when there is an opening table, then turn by turn.
    #[inline(always)]
    pub(super) fn table_trial(&self, table: &Table<C::State>, dice: &mut Dice, tally: &mut [u64]) {
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

    /// Run `n` trials by the replay trees (a loop of its own, so that the trial's few
    /// variables stay in registers).
    #[inline(never)]
    pub(super) fn tree_trials(
        &self,
        table: &Table<C::State>,
        trees: &Trees,
        dice: &mut Dice,
        n: u64,
        tally: &mut [u64],
    ) {
        // The dice in a local, so that their state can stay in registers; the start's row and
        // the walk's offsets worked out once for all the trials.
        let mut d = dice.clone();
        let l = &self.layout;
        let row = &table.rows[0];
        if row.absorbing {
            tally[l.absorbed(row.class as usize, 0)] += n;
            tally[l.empty(l.turns * row.empty as usize)] += n;
            tally[self.ended(0)] += n;
            return;
        }
        let (start, first) = (trees.root(0), Walk::from(self, row, 1, 0));
        let by_moves = self.empty_by_moves().is_some();
        match (trees.dice(), trees.picks()) {
            (Some(packed), _) if first.turns > 0 => {
                Self::run_packed(packed, by_moves, first, &mut d, n, tally)
            }
            (_, Some(packed)) if first.turns > 0 => match packed.one_table() {
                true => Self::run_packed(packed.walk::<true>(), by_moves, first, &mut d, n, tally),
                false => {
                    Self::run_packed(packed.walk::<false>(), by_moves, first, &mut d, n, tally)
                }
            },
            _ => {
                for _ in 0..n {
                    Self::tree_trial(trees, start, first, &mut d, tally);
                }
            }
        }
        *dice = d;
    }

    /// [`ChainSim::packed_tree_trials`] counting the empty turns, or leaving them to be read
    /// off the moves where it may (`by_moves`, see [`ChainSim::empty_by_moves`]).
    #[inline(always)]
    fn run_packed<P: Packed>(
        packed: P,
        by_moves: bool,
        walk: Walk,
        dice: &mut Dice,
        n: u64,
        tally: &mut [u64],
    ) {
        match by_moves {
            true => Self::packed_tree_trials::<false, _>(packed, walk, dice, n, tally),
            false => Self::packed_tree_trials::<true, _>(packed, walk, dice, n, tally),
        }
    }

    /// When the dice sampler's walk leaves the empty turns to [`ChainSim::finish`], to be
    /// read off the moves (`Some(all)`): it walks packed trees from a live start, and
    /// the live classes' places all stand empty (`all`) or none does, so that a trial's empty
    /// turns follow from the turn and class it was absorbed in.
    pub(super) fn empty_by_moves(&self) -> Option<bool> {
        let (table, trees) = (self.table.as_ref()?, self.trees.as_ref()?);
        if trees.dice().is_none() && trees.picks().is_none() {
            return None;
        }
        if table.rows[0].absorbing || self.layout.turns == 0 {
            return None;
        }
        let live = self.chain.classes().iter().filter(|c| !c.absorbing);
        let (all, any) = live.fold((true, false), |(all, any), c| {
            (all && c.empty, any || c.empty)
        });
        (all || !any).then_some(all)
    }

    /// `n` trials by the replay trees when they are packed ([`DiceTrees`] of dice only, or
    /// [`PickTrees`] of dice and picks), back to back in one loop of turns (the dice in locals,
    /// so that the walk keeps its registers) with no branch on the dice but a turn's further
    /// draws: an absorbing end node leads to the start's first draw, so that the next trial
    /// goes on from there with no branch, and the counts are indexed, not chosen. Every turn
    /// counts its move from class to class, a
    /// stay in the class too (in the raw tally's diagonal, which [`ChainSim::finish`] never
    /// reads: a stay is no move), and its end node's slot (a trial's end by its state, or a
    /// place for the turns that end none). With `EMPTY` it counts the empty turns (without,
    /// the fold reads them off the moves: see [`ChainSim::empty_by_moves`]). The dice are
    /// those of the trials one after another, as the rules code rolls them.
    #[inline(never)]
    fn packed_tree_trials<const EMPTY: bool, P: Packed>(
        packed: P,
        walk: Walk,
        dice: &mut Dice,
        n: u64,
        tally: &mut [u64],
    ) {
        let stride = |keys: &[DieNode]| keyed_stride::<EMPTY>(keys.len(), walk.turns);
        if P::KEYED
            && packed
                .keys()
                .is_some_and(|keys| walk.turns * stride(keys) <= KEYED_COUNTS)
        {
            return Self::keyed_tree_trials::<EMPTY, _>(packed, walk, dice, n, tally);
        }
        let mut d = dice.clone();
        let (cc, turns, states) = (walk.classes * walk.classes, walk.turns, packed.states());
        // The trials that ended in each state, then the turns that ended live in each.
        let mut ends = vec![0u64; 2 * states];
        // The trials that stood empty each number of turns, then the live turns by the
        // number so far.
        let mut empties = vec![0u64; if EMPTY { 2 * (turns + 1) } else { 0 }];
        let start = packed.start();
        // Where the raw tally's moves of this turn start, the turns left, the trials left.
        let (mut at, mut moves, mut left, mut trials, mut empty_turns) =
            (start, walk.trans0, turns, n, 0usize);
        while trials > 0 {
            let next = packed.turn(at, &mut d);
            let node = P::node(next);
            tally[moves + node.code()] += 1;
            ends[node.slot()] += 1;
            let absorbed = node.absorbing();
            trials -= u64::from(absorbed);
            if EMPTY {
                let e = empty_turns + node.empty() * select_unpredictable(absorbed, left, 1);
                empties[e + select_unpredictable(absorbed, 0, turns + 1)] += 1;
                empty_turns = select_unpredictable(absorbed, 0, e);
            }
            at = next;
            moves = select_unpredictable(absorbed, walk.trans0, moves + cc);
            left = select_unpredictable(absorbed, turns, left - 1);
            if left == 0 {
                // The turn cap (rare: a branch the processor predicts): the trial ends live.
                ends[node.slot() - states] += 1;
                trials -= 1;
                if EMPTY {
                    empties[empty_turns] += 1;
                }
                (at, left, empty_turns) = cap(start, turns);
                moves = walk.trans0;
            }
        }
        for (t, e) in tally[walk.ended0..].iter_mut().zip(&ends[..states]) {
            *t += e;
        }
        if EMPTY {
            for (t, e) in tally[walk.empty0..].iter_mut().zip(&empties[..turns + 1]) {
                *t += e;
            }
        }
        *dice = d;
    }

    /// [`ChainSim::packed_tree_trials`] when the trees have keys ([`DiceTrees::keys`]) and
    /// the counts by turn and key fit [`KEYED_COUNTS`] (with `EMPTY`, by turn, empty turns so
    /// far and key): a turn counts its key in its row of a small array (whose rows in use stay in the
    /// first-level cache), one count for its move, its slot and its empty turns, and the rows
    /// are added to the tally's moves, ends and empty turns once at the end (a trial that lived
    /// to the cap ended in the state of its last turn's key). The same dice, the same tally.
    #[inline(never)]
    fn keyed_tree_trials<const EMPTY: bool, P: Packed>(
        packed: P,
        walk: Walk,
        dice: &mut Dice,
        n: u64,
        tally: &mut [u64],
    ) {
        let mut d = dice.clone();
        let keys = packed.keys().unwrap_or_default();
        let (k, turns, states) = (keys.len(), walk.turns, packed.states());
        // The turns that ended at each key: turn `t` (from 0), `e` turns empty before it, key
        // `i` at `t · s + e · k + i` (`e` 0 without `EMPTY`).
        let s = keyed_stride::<EMPTY>(k, turns);
        let mut counts = [0u64; KEYED_COUNTS];
        let start = packed.start();
        // Where this turn's row starts (at `last` or past it after the last turn), the trials
        // left.
        let last = turns * s;
        let (mut at, mut row, mut trials) = (start, 0usize, n);
        while trials > 0 {
            let next = packed.turn(at, &mut d);
            let node = P::node(next);
            // Within the array by `last`'s bound: the mask only spares the check.
            counts[(row + node.key()) % KEYED_COUNTS] += 1;
            let absorbed = node.absorbing();
            trials -= u64::from(absorbed);
            at = next;
            let step = match EMPTY {
                true => s + (k & 0usize.wrapping_sub(node.empty())),
                false => s,
            };
            row = select_unpredictable(absorbed, 0, row + step);
            if row >= last {
                // The turn cap (rare: a branch the processor predicts): the trial ends live.
                trials -= 1;
                (at, _, row) = cap(start, turns);
            }
        }
        let cc = walk.classes * walk.classes;
        for t in 0..turns {
            for e in 0..if EMPTY { t + 1 } else { 1 } {
                for (i, key) in keys.iter().enumerate() {
                    let c = counts[t * s + e * k + i];
                    tally[walk.trans0 + t * cc + key.code()] += c;
                    // A trial's end: absorbed here, or at the cap.
                    let (slot, left) = match key.absorbing() {
                        true => (key.slot(), turns - t),
                        false if t + 1 == turns => (key.slot() - states, 1),
                        false => continue,
                    };
                    tally[walk.ended0 + slot] += c;
                    if EMPTY {
                        tally[walk.empty0 + e + key.empty() * left] += c;
                    }
                }
            }
        }
        *dice = d;
    }

    /// Run one trial by the replay trees from the start's end node `at` and the start's walk:
    /// every die the rules code would roll, in its order, and the same states; recorded as the
    /// table sampler records a trial (class changes, the final state, the turns empty), so the
    /// same fold reads it.
    #[inline(always)]
    fn tree_trial(trees: &Trees, mut at: Step, mut walk: Walk, dice: &mut Dice, tally: &mut [u64]) {
        for t in 1..=walk.turns {
            at = trees.next(at, dice);
            // The end node holds what the walk needs of its state's row.
            if walk.moved(tally, at.state(), at.class(), at.absorbing(), at.empty(), t) {
                return;
            }
        }
        walk.at_cap(tally, at.state());
    }

    /// Carry a trial on from `cont` after the opening to its end, a block at a time: one draw
    /// and one count a block, and the empty-turns count once at the end.
    #[inline(always)]
    pub(super) fn run_blocks(
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
    pub(super) fn run_from(
        &self,
        table: &Table<C::State>,
        dice: &mut Dice,
        tally: &mut [u64],
        cont: Cont,
        mut t: usize,
    ) {
        let turns = self.layout.turns;
        let mut s = cont.state as usize;
        let mut row = &table.rows[s];
        // From the next turn on (the turns so far are in `cont.empty`).
        let mut walk = Walk::from(self, row, t + 1, cont.empty as usize);
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
            if walk.arrive(tally, s, row, t) {
                return;
            }
            if t >= turns {
                break;
            }
        }
        walk.at_cap(tally, s);
    }
}

/// A trial's way through the classes as the table sampler records it (its class changes, not
/// its turns): the class it is in and whether its place stands empty there, the turn from which
/// it is in that class, and the turns its place stood empty before then; with where its
/// counters are in the raw tally, in locals of the walk.
#[derive(Debug, Clone, Copy)]
struct Walk {
    c: usize,
    c_empty: usize,
    since: usize,
    empty_turns: usize,
    turns: usize,
    classes: usize,
    trans0: usize,
    ended0: usize,
    empty0: usize,
}

impl Walk {
    /// In `row`'s class from turn `since`, with `empty_turns` so far.
    #[inline(always)]
    fn from<C: Chain>(sim: &ChainSim<C>, row: &Row, since: usize, empty_turns: usize) -> Walk {
        Walk {
            c: row.class as usize,
            c_empty: row.empty as usize,
            since,
            empty_turns,
            turns: sim.layout.turns,
            classes: sim.layout.classes,
            trans0: sim.trans(1, 0, 0),
            ended0: sim.ended(0),
            empty0: sim.layout.empty(0),
        }
    }

    /// The trial is in compiled state `s` after turn `t`; `row` is its row.
    #[inline(always)]
    fn arrive(&mut self, tally: &mut [u64], s: usize, row: &Row, t: usize) -> bool {
        self.moved(
            tally,
            s,
            row.class as usize,
            row.absorbing,
            row.empty as usize,
            t,
        )
    }

    /// The trial is in compiled state `s` after turn `t`, in class `c2` (absorbing or not,
    /// empty or not): record a change of class, and the trial's end when the class is
    /// absorbing (then true).
    #[inline(always)]
    fn moved(
        &mut self,
        tally: &mut [u64],
        s: usize,
        c2: usize,
        absorbing: bool,
        empty: usize,
        t: usize,
    ) -> bool {
        if c2 == self.c {
            return false;
        }
        tally[self.trans0 + ((t - 1) * self.classes + self.c) * self.classes + c2] += 1;
        self.empty_turns += self.c_empty * (t - self.since);
        if absorbing {
            self.empty_turns += empty * (self.turns + 1 - t);
            tally[self.ended0 + s] += 1;
            tally[self.empty0 + self.empty_turns] += 1;
            return true;
        }
        (self.c, self.c_empty, self.since) = (c2, empty, t);
        false
    }

    /// The trial reached the turn cap in compiled state `s`.
    #[inline(always)]
    fn at_cap(self, tally: &mut [u64], s: usize) {
        let empty = self.empty_turns + self.c_empty * (self.turns + 1 - self.since);
        tally[self.ended0 + s] += 1;
        tally[self.empty0 + empty] += 1;
    }
}

impl<C: Chain> Sim for ChainSim<C> {
    fn tally_len(&self) -> usize {
        match (&self.table, &self.opening) {
            (Some(t), Some(op)) => match &self.blocks {
                Some(b) => self.block_count(t, op, b.records.len()),
                None => self.opening_count(t, op.paths.len()),
            },
            (Some(t), None) => self.ended(t.states.len()),
            (None, _) => self.tail(self.layout.series(), 1),
        }
    }
    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
        if let Some(fight) = &self.fight {
            for _ in 0..n {
                self.fight_trial(fight, dice, tally);
            }
            return;
        }
        match (&self.table, &self.trees) {
            (Some(table), Some(trees)) => self.tree_trials(table, trees, dice, n, tally),
            (Some(table), None) => {
                for _ in 0..n {
                    self.table_trial(table, dice, tally);
                }
            }
            (None, _) => {
                for _ in 0..n {
                    self.trial(dice, tally);
                }
            }
        }
    }
}

/// Where a trial of [`ChainSim::walk_trial`] is, and how it plays a turn.
trait Trial<C: Chain> {
    /// Play one turn.
    fn step(&mut self);
    /// The class the trial is in.
    fn class(&self) -> usize;
    /// Every series of where the trial is, into `out` (one per [`Chain::series`]).
    fn series_all(&self, out: &mut [u32]);
    /// Series `i` of where the trial is.
    fn series_of(&self, i: usize) -> u32;
    /// Every value of the trial's state, into `out` (one per [`Chain::values`]).
    fn values_all(&self, out: &mut [u32]);
    /// The trial's whole state.
    fn state(&self) -> C::State;
    /// Every series of where the trial is, where a table keeps them (read in place, not
    /// copied).
    fn series_kept(&self) -> Option<&[u32]> {
        None
    }
    /// Where a table keeps them: the layout places of the trial's values but those read off
    /// what it accumulated, and those values (by their index).
    fn value_places(&self) -> Option<(&[u32], &[usize])> {
        None
    }
    /// Value `i`, read off what the trial accumulated (one of [`Trial::value_places`]').
    fn accumulated_value(&self, i: usize) -> u32 {
        let _ = i;
        0
    }
}

/// A trial as its whole state, each turn rolled through the rules code.
struct StateWalk<'a, C: Chain, R> {
    chain: &'a C,
    s: C::State,
    r: &'a mut R,
}

impl<C: Chain, R: Roll> Trial<C> for StateWalk<'_, C, R> {
    #[inline(always)]
    fn step(&mut self) {
        self.chain.step_in_place(&mut self.s, self.r);
    }
    #[inline(always)]
    fn class(&self) -> usize {
        self.chain.class_of(self.s)
    }
    #[inline(always)]
    fn series_all(&self, out: &mut [u32]) {
        self.chain.series_all(&self.s, out);
    }
    #[inline(always)]
    fn series_of(&self, i: usize) -> u32 {
        self.chain.series_of(self.s, i)
    }
    #[inline(always)]
    fn values_all(&self, out: &mut [u32]) {
        self.chain.values_all(&self.s, out);
    }
    #[inline(always)]
    fn state(&self) -> C::State {
        self.s
    }
}

/// A trial of a fight's table: the number of its core and its accumulated number, its class
/// and series read off the table (off its whole state where the series read more than the
/// core), its whole state made at the end.
struct CoreWalk<'a, C: Chain> {
    chain: &'a C,
    fight: &'a Fight<C::State>,
    dice: &'a mut Dice,
    core: usize,
    acc: u64,
    n_series: usize,
    /// Value places per core ([`Fight::value_slots`]).
    n_slots: usize,
}

impl<C: Chain> Trial<C> for CoreWalk<'_, C> {
    #[inline(always)]
    fn step(&mut self) {
        let c = &self.fight.cores[self.core];
        let m = c.first as usize + c.weights.as_ref().map_or(0, |w| self.dice.pick(w));
        self.core = self.fight.next[m] as usize;
        self.acc = self.chain.carried(self.acc, self.fight.accumulated[m]);
    }
    #[inline(always)]
    fn class(&self) -> usize {
        self.fight.class[self.core] as usize
    }
    /// Where the table keeps no series ([`Trial::series_kept`] is `None`).
    #[inline(always)]
    fn series_all(&self, out: &mut [u32]) {
        self.chain.series_all(&self.state(), out);
    }
    #[inline(always)]
    fn series_of(&self, i: usize) -> u32 {
        match self.fight.series.is_empty() {
            true => self.chain.series_of(self.state(), i),
            false => self.fight.series[self.core * self.n_series + i],
        }
    }
    /// Where the table keeps no value places ([`Trial::value_places`] is `None`).
    #[inline(always)]
    fn values_all(&self, out: &mut [u32]) {
        self.chain
            .values_of_parts(&self.fight.states[self.core], self.acc, out);
    }
    #[inline(always)]
    fn state(&self) -> C::State {
        self.chain
            .state_of_parts(self.fight.states[self.core], self.acc)
    }
    #[inline(always)]
    fn series_kept(&self) -> Option<&[u32]> {
        match self.fight.series.is_empty() {
            true => None,
            false => {
                let at = self.core * self.n_series;
                Some(&self.fight.series[at..at + self.n_series])
            }
        }
    }
    #[inline(always)]
    fn value_places(&self) -> Option<(&[u32], &[usize])> {
        match self.fight.value_slots.is_empty() {
            true => None,
            false => {
                let n = self.n_slots;
                let at = self.core * n;
                Some((
                    &self.fight.value_slots[at..at + n],
                    &self.fight.accumulated_values,
                ))
            }
        }
    }
    #[inline(always)]
    fn accumulated_value(&self, i: usize) -> u32 {
        self.chain.value_of_accumulated(i, self.acc).unwrap_or(0)
    }
}
